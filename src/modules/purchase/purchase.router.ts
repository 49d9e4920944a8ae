import { defineRoutes } from '../../core/http/route';
import { AuditTrailPage } from '../../core/http/response-schema';
import * as c from './purchase.controller';
import { OpenItemPage, PurchaseOrder, PurchaseOrderPage, PurchaseOrderReceipts } from './purchase.responses';
import { purchaseSchemas as s } from './purchase.schemas';

const READ = 'purchase:read';
const WRITE = 'purchase:write';
const APPROVE = 'purchase:approve';
const TAG = 'Purchase orders';

/* Problem codes shared by the routes that read or change one order. */
const NOT_FOUND = ['PURCHASE_ORDER_NOT_FOUND'];
const LINES = ['SUPPLIER_NOT_FOUND', 'PRODUCT_NOT_FOUND'];
const LINE_RULES = ['SUPPLIER_INACTIVE', 'PRODUCT_INACTIVE', 'DISCOUNT_ABOVE_LINE_VALUE'];
const STATE = ['INVALID_STATUS_TRANSITION'];

/** Literal paths first: `/purchase/:id` (PATCH, DELETE) and `/purchase/:id/...` must not swallow them. */
export const purchaseRoutes = defineRoutes([
  {
    method: 'post',
    path: '/purchase',
    tag: TAG,
    summary: 'Create a purchase order (DRAFT)',
    scope: WRITE,
    schema: s.create,
    idempotent: true,
    status: 201,
    responses: { body: PurchaseOrder, errors: { 400: ['MISSING_FILIAL'], 404: LINES, 422: LINE_RULES } },
    handler: c.create,
  },
  {
    method: 'get',
    path: '/purchase/list/:filialId',
    tag: TAG,
    summary: "List a filial's purchase orders (filters, search, two-phase pagination)",
    scope: READ,
    schema: s.list,
    responses: { body: PurchaseOrderPage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/purchase/detail/:id',
    tag: TAG,
    summary: 'A purchase order with its lines (received, cancelled, open)',
    scope: READ,
    schema: s.byId,
    responses: { body: PurchaseOrder, errors: { 404: NOT_FOUND } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/purchase/audit/:id',
    tag: TAG,
    summary: "The order's audit trail, oldest first: who created, edited, approved, received, cancelled or closed it, with field diffs",
    scope: READ,
    schema: s.auditTrail,
    responses: { body: AuditTrailPage, errors: { 404: NOT_FOUND } },
    handler: c.auditTrail,
  },
  {
    method: 'get',
    path: '/purchase/open-items/:filialId',
    tag: TAG,
    summary: 'Open lines of approved orders a receipt can be matched against (oldest first)',
    scope: READ,
    schema: s.openItems,
    responses: { body: OpenItemPage },
    handler: c.openItems,
  },
  {
    method: 'get',
    path: '/purchase/:id/receipts',
    tag: TAG,
    summary:
      "The order's lines (ordered, received, cancelled, open) and a page of the entry-document lines received against it (confirmed and cancelled)",
    scope: READ,
    schema: s.receipts,
    responses: { body: PurchaseOrderReceipts, errors: { 404: NOT_FOUND } },
    handler: c.receipts,
  },
  {
    method: 'post',
    path: '/purchase/:id/approve',
    tag: TAG,
    summary: 'Approve a DRAFT (needs purchase:approve)',
    scope: APPROVE,
    schema: s.byId,
    idempotent: true,
    responses: { body: PurchaseOrder, errors: { 404: NOT_FOUND, 409: STATE, 422: ['PURCHASE_ORDER_NOT_APPROVABLE'] } },
    handler: c.approve,
  },
  {
    method: 'post',
    path: '/purchase/:id/cancel',
    tag: TAG,
    summary: 'Cancel a DRAFT or APPROVED order',
    scope: WRITE,
    schema: s.cancel,
    idempotent: true,
    responses: { body: PurchaseOrder, errors: { 404: NOT_FOUND, 409: STATE } },
    handler: c.cancel,
  },
  {
    method: 'post',
    path: '/purchase/:id/close',
    tag: TAG,
    summary: 'Close a PARTIALLY_RECEIVED order (the rest will not come)',
    scope: WRITE,
    schema: s.close,
    idempotent: true,
    responses: { body: PurchaseOrder, errors: { 404: NOT_FOUND, 409: STATE } },
    handler: c.close,
  },
  {
    method: 'patch',
    path: '/purchase/:id',
    tag: TAG,
    summary: 'Edit a DRAFT (needs version; items replace the lines as a whole)',
    scope: WRITE,
    schema: s.update,
    responses: {
      body: PurchaseOrder,
      errors: {
        404: [...NOT_FOUND, ...LINES, 'PURCHASE_ORDER_ITEM_NOT_FOUND'],
        409: [...STATE, 'STALE_VERSION'],
        422: [...LINE_RULES, 'ITEM_NOT_IN_ORDER'],
      },
    },
    handler: c.update,
  },
  {
    method: 'delete',
    path: '/purchase/:id',
    tag: TAG,
    summary: 'Delete a DRAFT (the audit trail stays)',
    scope: WRITE,
    schema: s.byId,
    status: 204,
    responses: { errors: { 404: NOT_FOUND, 409: STATE } },
    handler: c.remove,
  },
]);
