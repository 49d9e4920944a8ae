import { defineRoutes } from '../../core/http/route';
import * as c from './payables.controller';
import { payableSchemas as s } from './payables.schemas';

const READ = 'payables:read';
const WRITE = 'payables:write';
const TAG = 'Accounts payable';

/** Mounted before `/entry-document/:id`; the literal segments go before `:filialId`. */
export const payableRoutes = defineRoutes([
  { method: 'get', path: '/entry-document/contas-pagar/documento/:entryDocumentId', tag: TAG, summary: "An entry document's payables", scope: READ, schema: s.byDocument, handler: c.byDocument },
  { method: 'get', path: '/entry-document/contas-pagar/detail/:id', tag: TAG, summary: 'A payable with its payments (reversed ones included)', scope: READ, schema: s.detail, handler: c.detail },
  { method: 'post', path: '/entry-document/contas-pagar/pay/:id', tag: TAG, summary: 'Register a payment (amount settled, date, method, interest, fine, discount, note)', scope: WRITE, schema: s.pay, idempotent: true, status: 201, handler: c.pay },
  { method: 'post', path: '/entry-document/contas-pagar/reverse-payment/:paymentId', tag: TAG, summary: 'Reverse a payment (with a reason): paid amount and status follow', scope: WRITE, schema: s.reversePayment, idempotent: true, handler: c.reverse },
  { method: 'get', path: '/entry-document/contas-pagar/:filialId', tag: TAG, summary: 'Payables of a filial (filters, totals and aging summary, paginated)', scope: READ, schema: s.list, handler: c.list },
]);
