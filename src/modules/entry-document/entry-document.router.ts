import { defineRoutes } from '../../core/http/route';
import * as c from './entry-document.controller';
import { entryDocumentSchemas as s } from './entry-document.schemas';
import * as fiscal from './fiscal/fiscal.controller';
import { fiscalSchemas as fs } from './fiscal/fiscal.schemas';

const READ = 'entry-document:read';
const WRITE = 'entry-document:write';
const TAG = 'Entry documents';

/** Literal paths first: `/entry-document/:id` (PATCH, DELETE) must not swallow them. */
export const entryDocumentRoutes = defineRoutes([
  { method: 'get', path: '/entry-document/cfop-rules/defaults', tag: TAG, summary: 'The default tables: issuer CFOP → entry CFOP, what each entry CFOP, class, finNFe and tax regime books', scope: READ, schema: fs.defaults, handler: fiscal.defaults },
  { method: 'get', path: '/entry-document/cfop-rules', tag: TAG, summary: "The company's CFOP rules (issuer CFOP, NCM prefix or product → entry CFOP)", scope: READ, schema: fs.listRules, handler: fiscal.listRules },
  { method: 'post', path: '/entry-document/cfop-rules', tag: TAG, summary: 'Create a CFOP rule', scope: WRITE, schema: fs.createRule, idempotent: true, status: 201, handler: fiscal.createRule },
  { method: 'patch', path: '/entry-document/cfop-rules/:id', tag: TAG, summary: 'Edit a CFOP rule (needs version)', scope: WRITE, schema: fs.patchRule, handler: fiscal.patchRule },
  { method: 'delete', path: '/entry-document/cfop-rules/:id', tag: TAG, summary: 'Delete a CFOP rule', scope: WRITE, schema: fs.deleteRule, status: 204, handler: fiscal.deleteRule },
  { method: 'get', path: '/entry-document/third-party-stock/:filialId', tag: TAG, summary: "Goods of others the filial holds (remessas), per product and owner", scope: READ, schema: fs.thirdPartyStock, handler: fiscal.thirdPartyStock },
  { method: 'post', path: '/entry-document/preview-manual', tag: TAG, summary: 'Compute a manual entry document without saving it', scope: WRITE, schema: s.previewManual, handler: c.previewManual },
  { method: 'get', path: '/entry-document/list/:filialId', tag: TAG, summary: 'List entry documents of a filial (filters, search, paginated)', scope: READ, schema: s.list, handler: c.list },
  { method: 'get', path: '/entry-document/detail/:id', tag: TAG, summary: 'An entry document with items, installments and payables', scope: READ, schema: s.byId, handler: c.detail },
  { method: 'get', path: '/entry-document/audit/:id', tag: TAG, summary: 'Who created, edited, confirmed and cancelled it, and when', scope: READ, schema: s.byId, handler: c.audit },
  { method: 'get', path: '/entry-document/audit-history/:id', tag: TAG, summary: 'The full audit trail with field diffs (paginated)', scope: READ, schema: s.auditHistory, handler: c.auditHistory },
  { method: 'get', path: '/entry-document/confirm-preview/:id', tag: TAG, summary: 'Exactly what confirm will post: movements, payables, warnings, blocking problems', scope: READ, schema: s.byId, handler: c.confirmPreviewHandler },
  { method: 'post', path: '/entry-document/confirm/:id', tag: TAG, summary: 'Confirm: post stock, create payables', scope: WRITE, schema: s.byId, idempotent: true, handler: c.confirm },
  { method: 'get', path: '/entry-document/cancel-preview/:id', tag: TAG, summary: 'What cancel will reverse, and what blocks it', scope: READ, schema: s.byId, handler: c.cancelPreviewHandler },
  { method: 'post', path: '/entry-document/cancel/:id', tag: TAG, summary: 'Cancel: reverse stock, cancel payables', scope: WRITE, schema: s.cancel, idempotent: true, handler: c.cancel },
  { method: 'patch', path: '/entry-document/lines/:id', tag: TAG, summary: 'Review lines of a DRAFT by id (product, conversion factor, review state, save mapping); needs version', scope: WRITE, schema: s.reviewLines, handler: c.reviewLinesHandler },
  { method: 'post', path: '/entry-document/apply-product-map/:id', tag: TAG, summary: 'Resolve every PENDING line of a DRAFT through the product map again; needs version', scope: WRITE, schema: s.applyProductMap, idempotent: true, handler: c.applyProductMapHandler },
  { method: 'post', path: '/entry-document', tag: TAG, summary: 'Create a manual entry document (DRAFT)', scope: WRITE, schema: s.create, idempotent: true, status: 201, handler: c.create },
  { method: 'patch', path: '/entry-document/:id', tag: TAG, summary: 'Edit a DRAFT (needs version; items and installments are replaced as a whole)', scope: WRITE, schema: s.patch, handler: c.patch },
  { method: 'delete', path: '/entry-document/:id', tag: TAG, summary: 'Delete a DRAFT (the audit trail stays)', scope: WRITE, schema: s.byId, status: 204, handler: c.remove },
]);
