import { defineRoutes } from '../../core/http/route';
import { AuditTrailPage } from '../../core/http/response-schema';
import * as c from './payables.controller';
import { PayableDetail, PayableList, PayablePage, PaymentResult } from './payables.responses';
import { payableSchemas as s } from './payables.schemas';

const READ = 'payables:read';
const WRITE = 'payables:write';
const TAG = 'Accounts payable';

const NOT_FOUND = ['PAYABLE_NOT_FOUND'];

/** Mounted before `/entry-document/:id`; the literal segments go before `:filialId`. */
export const payableRoutes = defineRoutes([
  {
    method: 'get',
    path: '/entry-document/contas-pagar/documento/:entryDocumentId',
    tag: TAG,
    summary: "An entry document's payables",
    scope: READ,
    schema: s.byDocument,
    responses: { body: PayablePage, errors: { 404: ['ENTRY_DOCUMENT_NOT_FOUND'] } },
    handler: c.byDocument,
  },
  {
    method: 'get',
    path: '/entry-document/contas-pagar/detail/:id',
    tag: TAG,
    summary: 'A payable with its payments (reversed ones included)',
    scope: READ,
    schema: s.detail,
    responses: { body: PayableDetail, errors: { 404: NOT_FOUND } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/entry-document/contas-pagar/audit/:id',
    tag: TAG,
    summary: "The payable's audit trail, oldest first: created, payments registered and reversed, with field diffs",
    scope: READ,
    schema: s.auditTrail,
    responses: { body: AuditTrailPage, errors: { 404: NOT_FOUND } },
    handler: c.auditTrail,
  },
  {
    method: 'post',
    path: '/entry-document/contas-pagar/pay/:id',
    tag: TAG,
    summary: 'Register a payment (amount settled, date, method, interest, fine, discount, note)',
    scope: WRITE,
    schema: s.pay,
    idempotent: true,
    status: 201,
    responses: {
      body: PaymentResult,
      errors: {
        404: NOT_FOUND,
        409: ['PAYABLE_CANCELLED', 'PAYABLE_ALREADY_PAID'],
        422: ['PAYMENT_DATE_IN_FUTURE', 'PAYMENT_EXCEEDS_BALANCE', 'PAYMENT_METHOD_NOT_FOUND', 'PAYMENT_METHOD_INACTIVE'],
      },
    },
    handler: c.pay,
  },
  {
    method: 'post',
    path: '/entry-document/contas-pagar/reverse-payment/:paymentId',
    tag: TAG,
    summary: 'Reverse a payment (with a reason): paid amount and status follow',
    scope: WRITE,
    schema: s.reversePayment,
    idempotent: true,
    responses: {
      body: PaymentResult,
      errors: { 404: ['PAYMENT_NOT_FOUND', ...NOT_FOUND], 409: ['PAYMENT_ALREADY_REVERSED', 'PAYABLE_CANCELLED'] },
    },
    handler: c.reverse,
  },
  {
    method: 'get',
    path: '/entry-document/contas-pagar/:filialId',
    tag: TAG,
    summary: 'Payables of a filial (filters, totals and aging summary, paginated)',
    scope: READ,
    schema: s.list,
    responses: { body: PayableList },
    handler: c.list,
  },
]);
