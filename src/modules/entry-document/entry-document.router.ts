import { defineRoutes } from '../../core/http/route';
import * as c from './entry-document.controller';
import {
  AuditHistoryPage,
  AuditSummary,
  CancelPreview,
  CfopRule,
  CfopRulePage,
  ConfirmPreview,
  EntryDocument,
  EntryDocumentMapApplied,
  EntryDocumentPage,
  EntryDocumentPosted,
  EntryDocumentPreview,
  FiscalDefaults,
  ThirdPartyStockPage,
} from './entry-document.responses';
import { entryDocumentSchemas as s } from './entry-document.schemas';
import * as fiscal from './fiscal/fiscal.controller';
import { fiscalSchemas as fs } from './fiscal/fiscal.schemas';

const READ = 'entry-document:read';
const WRITE = 'entry-document:write';
const TAG = 'Entry documents';

/* Problem codes shared by the routes that read or change one document. */
const NOT_FOUND = ['ENTRY_DOCUMENT_NOT_FOUND'];
/** A refused action names the document's status (entry-document.state.ts). */
const NOT_DRAFT = ['ENTRY_DOCUMENT_CONFIRMED', 'ENTRY_DOCUMENT_CANCELLED', 'STALE_VERSION'];
/** Lines: products and suppliers of the tenant, purchase-order lines they are received against. */
const LINES = ['PRODUCT_NOT_FOUND', 'SUPPLIER_NOT_FOUND', 'PURCHASE_ORDER_ITEM_NOT_FOUND'];
const LINE_RULES = ['PURCHASE_ORDER_LINE_NOT_LINKABLE', 'ENTRY_DOCUMENT_FIELD_READ_ONLY', 'ENTRY_DOCUMENT_LINES_FIXED', 'ENTRY_DOCUMENT_HAS_CTE_FREIGHT'];
const RULE_NOT_FOUND = ['CFOP_RULE_NOT_FOUND'];

/** Literal paths first: `/entry-document/:id` (PATCH, DELETE) must not swallow them. */
export const entryDocumentRoutes = defineRoutes([
  { method: 'get', path: '/entry-document/cfop-rules/defaults', tag: TAG, summary: 'The default tables: issuer CFOP → entry CFOP, what each entry CFOP, class, finNFe and tax regime books', scope: READ, schema: fs.defaults, responses: { body: FiscalDefaults }, handler: fiscal.defaults },
  { method: 'get', path: '/entry-document/cfop-rules', tag: TAG, summary: "The company's CFOP rules (issuer CFOP, NCM prefix or product → entry CFOP)", scope: READ, schema: fs.listRules, responses: { body: CfopRulePage }, handler: fiscal.listRules },
  { method: 'post', path: '/entry-document/cfop-rules', tag: TAG, summary: 'Create a CFOP rule', scope: WRITE, schema: fs.createRule, idempotent: true, status: 201, responses: { body: CfopRule, errors: { 404: ['PRODUCT_NOT_FOUND'], 409: ['CFOP_RULE_EXISTS'] } }, handler: fiscal.createRule },
  { method: 'patch', path: '/entry-document/cfop-rules/:id', tag: TAG, summary: 'Edit a CFOP rule (needs version)', scope: WRITE, schema: fs.patchRule, responses: { body: CfopRule, errors: { 404: [...RULE_NOT_FOUND, 'PRODUCT_NOT_FOUND'], 409: ['CFOP_RULE_EXISTS', 'STALE_VERSION'] } }, handler: fiscal.patchRule },
  { method: 'delete', path: '/entry-document/cfop-rules/:id', tag: TAG, summary: 'Delete a CFOP rule', scope: WRITE, schema: fs.deleteRule, status: 204, responses: { errors: { 404: RULE_NOT_FOUND, 409: ['STALE_VERSION'] } }, handler: fiscal.deleteRule },
  { method: 'get', path: '/entry-document/third-party-stock/:filialId', tag: TAG, summary: "Goods of others the filial holds (remessas), per product and owner", scope: READ, schema: fs.thirdPartyStock, responses: { body: ThirdPartyStockPage }, handler: fiscal.thirdPartyStock },
  { method: 'post', path: '/entry-document/preview-manual', tag: TAG, summary: 'Compute a manual entry document without saving it', scope: WRITE, schema: s.previewManual, responses: { body: EntryDocumentPreview, errors: { 400: ['MISSING_TENANT_HEADER'], 404: [...LINES, 'FILIAL_NOT_FOUND'], 422: LINE_RULES } }, handler: c.previewManual },
  { method: 'get', path: '/entry-document/list/:filialId', tag: TAG, summary: 'List entry documents of a filial (filters, search, paginated)', scope: READ, schema: s.list, responses: { body: EntryDocumentPage }, handler: c.list },
  { method: 'get', path: '/entry-document/detail/:id', tag: TAG, summary: 'An entry document with items, installments and payables', scope: READ, schema: s.byId, responses: { body: EntryDocument, errors: { 404: NOT_FOUND } }, handler: c.detail },
  { method: 'get', path: '/entry-document/audit/:id', tag: TAG, summary: 'Who created, edited, confirmed and cancelled it, and when', scope: READ, schema: s.byId, responses: { body: AuditSummary, errors: { 404: NOT_FOUND } }, handler: c.audit },
  { method: 'get', path: '/entry-document/audit-history/:id', tag: TAG, summary: 'The full audit trail with field diffs (paginated)', scope: READ, schema: s.auditHistory, responses: { body: AuditHistoryPage, errors: { 404: NOT_FOUND } }, handler: c.auditHistory },
  { method: 'get', path: '/entry-document/confirm-preview/:id', tag: TAG, summary: 'Exactly what confirm will post: movements, payables, warnings, blocking problems', scope: READ, schema: s.byId, responses: { body: ConfirmPreview, errors: { 404: NOT_FOUND } }, handler: c.confirmPreviewHandler },
  { method: 'post', path: '/entry-document/confirm/:id', tag: TAG, summary: 'Confirm: post stock, create payables', scope: WRITE, schema: s.byId, idempotent: true, responses: { body: EntryDocumentPosted, errors: { 404: NOT_FOUND, 409: ['ENTRY_DOCUMENT_CONFIRMED', 'ENTRY_DOCUMENT_CANCELLED', 'STALE_VERSION'], 422: ['ENTRY_DOCUMENT_NOT_CONFIRMABLE', 'INSUFFICIENT_STOCK', 'INSUFFICIENT_THIRD_PARTY_STOCK'] } }, handler: c.confirm },
  { method: 'get', path: '/entry-document/cancel-preview/:id', tag: TAG, summary: 'What cancel will reverse, and what blocks it', scope: READ, schema: s.byId, responses: { body: CancelPreview, errors: { 404: NOT_FOUND } }, handler: c.cancelPreviewHandler },
  { method: 'post', path: '/entry-document/cancel/:id', tag: TAG, summary: 'Cancel: reverse stock, cancel payables', scope: WRITE, schema: s.cancel, idempotent: true, responses: { body: EntryDocumentPosted, errors: { 404: NOT_FOUND, 409: ['ENTRY_DOCUMENT_CANCELLED', 'STALE_VERSION'], 422: ['ENTRY_DOCUMENT_NOT_CANCELLABLE', 'INSUFFICIENT_STOCK', 'INSUFFICIENT_THIRD_PARTY_STOCK'] } }, handler: c.cancel },
  { method: 'patch', path: '/entry-document/lines/:id', tag: TAG, summary: 'Review lines of a DRAFT by id (product, conversion factor, review state, save mapping, purchase-order line, entry CFOP, operation class); needs version', scope: WRITE, schema: s.reviewLines, responses: { body: EntryDocument, errors: { 404: [...NOT_FOUND, ...LINES, 'ENTRY_DOCUMENT_ITEM_NOT_FOUND'], 409: NOT_DRAFT, 422: [...LINE_RULES, 'LINE_PRODUCT_REQUIRED', 'LINE_MAPPING_NEEDS_PRODUCT', 'LINE_HAS_NO_SUPPLIER_CODE', 'PRODUCT_INACTIVE'] } }, handler: c.reviewLinesHandler },
  { method: 'post', path: '/entry-document/apply-product-map/:id', tag: TAG, summary: 'Resolve every PENDING line of a DRAFT through the product map again; needs version', scope: WRITE, schema: s.applyProductMap, idempotent: true, responses: { body: EntryDocumentMapApplied, errors: { 404: NOT_FOUND, 409: NOT_DRAFT } }, handler: c.applyProductMapHandler },
  { method: 'post', path: '/entry-document', tag: TAG, summary: 'Create a manual entry document (DRAFT)', scope: WRITE, schema: s.create, idempotent: true, status: 201, responses: { body: EntryDocument, errors: { 400: ['MISSING_TENANT_HEADER'], 404: [...LINES, 'FILIAL_NOT_FOUND'], 409: ['NFE_ALREADY_IMPORTED'], 422: LINE_RULES } }, handler: c.create },
  { method: 'patch', path: '/entry-document/:id', tag: TAG, summary: 'Edit a DRAFT (needs version; items and installments are replaced as a whole)', scope: WRITE, schema: s.patch, responses: { body: EntryDocument, errors: { 404: [...NOT_FOUND, ...LINES], 409: NOT_DRAFT, 422: LINE_RULES } }, handler: c.patch },
  { method: 'delete', path: '/entry-document/:id', tag: TAG, summary: 'Delete a DRAFT (the audit trail stays)', scope: WRITE, schema: s.byId, status: 204, responses: { errors: { 404: NOT_FOUND, 409: ['ENTRY_DOCUMENT_CONFIRMED', 'ENTRY_DOCUMENT_CANCELLED', 'ENTRY_DOCUMENT_CHANGED'] } }, handler: c.remove },
]);
