import { defineRoutes } from '../../core/http/route';
import * as c from './payables.controller';
import { payableSchemas as s } from './payables.schemas';

const READ = 'payables:read';
const TAG = 'Accounts payable';

/** Mounted before `/entry-document/:id`; the literal `documento` segment goes before `:filialId`. */
export const payableRoutes = defineRoutes([
  { method: 'get', path: '/entry-document/contas-pagar/documento/:entryDocumentId', tag: TAG, summary: "An entry document's payables", scope: READ, schema: s.byDocument, handler: c.byDocument },
  { method: 'get', path: '/entry-document/contas-pagar/:filialId', tag: TAG, summary: 'Payables of a filial (filters, totals summary, paginated)', scope: READ, schema: s.list, handler: c.list },
]);
