import { defineRoutes } from '../../core/http/route';
import * as c from './sales-order.controller';
import { salesOrderSchemas as s } from './sales-order.schemas';

const READ = 'sales-order:read';
const WRITE = 'sales-order:write';
const TAG = 'Sales orders';
const BASE = '/sales-order';

/* Literal paths first: `/sales-order/:filialIdOrId` would otherwise take `list`, `detail`, `group`… */
export const salesOrderRoutes = defineRoutes([
  { method: 'post', path: BASE, tag: TAG, summary: 'Create an order or a quote (flowMode QUICK_SALE: the quick-sale flow)', scope: WRITE, schema: s.create, idempotent: true, status: 201, handler: c.create },
  { method: 'post', path: `${BASE}/group/preview`, tag: TAG, summary: 'Preview the order that grouping would create', scope: READ, schema: s.group, handler: c.previewGroup },
  { method: 'post', path: `${BASE}/group`, tag: TAG, summary: 'Group OPEN orders of one customer into a new order', scope: WRITE, schema: s.group, idempotent: true, status: 201, handler: c.group },
  { method: 'get', path: `${BASE}/list/:filialId`, tag: TAG, summary: "List a filial's orders and quotes (search, filters, two-phase pagination)", scope: READ, schema: s.list, handler: c.list },
  { method: 'get', path: `${BASE}/detail/:id`, tag: TAG, summary: 'Read one order or quote', scope: READ, schema: s.get, handler: c.read },
  { method: 'get', path: `${BASE}/cancel-preview/:salesOrderId`, tag: TAG, summary: 'What cancelling would do', scope: READ, schema: s.cancelPreview, handler: c.previewCancel },
  { method: 'post', path: `${BASE}/cancel/:salesOrderId`, tag: TAG, summary: 'Cancel an order or quote (a partially fulfilled order is CLOSED)', scope: WRITE, schema: s.cancel, idempotent: true, handler: c.cancel },
  { method: 'post', path: `${BASE}/convert-quote/:salesOrderId`, tag: TAG, summary: 'Convert a quote into an order (same id and code)', scope: WRITE, schema: s.convertQuote, idempotent: true, handler: c.toOrder },
  { method: 'post', path: `${BASE}/convert-order-to-quote/:salesOrderId`, tag: TAG, summary: 'Turn an OPEN order with nothing fulfilled back into a quote', scope: WRITE, schema: s.convertToQuote, idempotent: true, handler: c.toQuote },
  { method: 'get', path: `${BASE}/:id/fulfillment`, tag: TAG, summary: 'Ordered, fulfilled, returned, cancelled and remaining per item, and the fulfillments', scope: READ, schema: s.fulfillment, handler: c.fulfillment },
  { method: 'post', path: `${BASE}/:id/fulfill`, tag: TAG, summary: 'Fulfil items (stock out at average cost)', scope: WRITE, schema: s.fulfill, idempotent: true, status: 201, handler: c.fulfill },
  { method: 'post', path: `${BASE}/:id/assign-customer`, tag: TAG, summary: 'Assign the customer (not CANCELLED or GROUPED)', scope: WRITE, schema: s.assignCustomer, idempotent: true, handler: c.assign },
  { method: 'patch', path: `${BASE}/:id`, tag: TAG, summary: 'Edit an OPEN order or quote with nothing fulfilled (needs version)', scope: WRITE, schema: s.update, handler: c.update },
  { method: 'delete', path: `${BASE}/:id`, tag: TAG, summary: 'Delete an OPEN order or quote with nothing fulfilled', scope: WRITE, schema: s.remove, status: 204, handler: c.remove },
  { method: 'get', path: `${BASE}/:filialIdOrId`, tag: TAG, summary: 'A filial id lists its orders; an order id reads that order', scope: READ, schema: s.listOrGet, handler: c.listOrRead },
]);
