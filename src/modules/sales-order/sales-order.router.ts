import { defineRoutes } from '../../core/http/route';
import * as c from './sales-order.controller';
import { Joi } from '../../core/http/schema';
import {
  CancelPreview,
  FulfillmentView,
  FulfillResult,
  GroupPreview,
  SalesOrder,
  SalesOrderDetail,
  salesOrderErrors,
  SalesOrderPage,
} from './sales-order.responses';
import { salesOrderSchemas as s } from './sales-order.schemas';

const READ = 'sales-order:read';
const WRITE = 'sales-order:write';
const TAG = 'Sales orders';

/* Problem codes shared by the routes that read or change one order. */
const NOT_FOUND = ['SALES_ORDER_NOT_FOUND'];
const { LINES, LINE_RULES, STATE, BOLETO_ACCOUNT_NOT_FOUND, BOLETO_TERMS } = salesOrderErrors;

/*
 * Literal paths first: `/sales-order/:filialIdOrId` would otherwise take `list`, `detail`, `group`…
 * POST /sales-order (an order, a quote or, flowMode QUICK_SALE, a counter sale) is quick-sale's:
 * quick-sale.router.ts, mounted just before these by src/modules/index.ts.
 */
export const salesOrderRoutes = defineRoutes([
  {
    method: 'post',
    path: '/sales-order/group/preview',
    tag: TAG,
    summary: 'Preview the order that grouping would create',
    scope: READ,
    schema: s.group,
    responses: { body: GroupPreview, errors: { 404: NOT_FOUND } },
    handler: c.previewGroup,
  },
  {
    method: 'post',
    path: '/sales-order/group',
    tag: TAG,
    summary: 'Group OPEN orders of one customer into a new order',
    scope: WRITE,
    schema: s.group,
    idempotent: true,
    status: 201,
    responses: {
      body: SalesOrder,
      errors: { 404: NOT_FOUND, 409: STATE, 422: ['GROUP_NOT_ALLOWED', 'GROUP_FILIAL_MISMATCH', 'GROUP_CUSTOMER_MISMATCH'] },
    },
    handler: c.group,
  },
  {
    method: 'get',
    path: '/sales-order/list/:filialId',
    tag: TAG,
    summary: "List a filial's orders and quotes (search, filters, two-phase pagination)",
    scope: READ,
    schema: s.list,
    responses: { body: SalesOrderPage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/sales-order/detail/:id',
    tag: TAG,
    summary: 'Read one order or quote, with the fiscal documents (NF-e, NFC-e) that bill or return it',
    scope: READ,
    schema: s.get,
    responses: { body: SalesOrderDetail, errors: { 404: NOT_FOUND } },
    handler: c.read,
  },
  {
    method: 'get',
    path: '/sales-order/cancel-preview/:salesOrderId',
    tag: TAG,
    summary: 'What cancelling would do',
    scope: READ,
    schema: s.cancelPreview,
    responses: { body: CancelPreview, errors: { 404: NOT_FOUND } },
    handler: c.previewCancel,
  },
  {
    method: 'post',
    path: '/sales-order/cancel/:salesOrderId',
    tag: TAG,
    summary: 'Cancel an order or quote (a partially fulfilled order is CLOSED)',
    scope: WRITE,
    schema: s.cancel,
    idempotent: true,
    responses: { body: SalesOrder, errors: { 404: NOT_FOUND, 409: STATE } },
    handler: c.cancel,
  },
  {
    method: 'post',
    path: '/sales-order/convert-quote/:salesOrderId',
    tag: TAG,
    summary: 'Convert a quote into an order (same id and code)',
    scope: WRITE,
    schema: s.convertQuote,
    idempotent: true,
    responses: { body: SalesOrder, errors: { 404: NOT_FOUND, 409: STATE, 422: ['QUOTE_EXPIRED', ...LINE_RULES] } },
    handler: c.toOrder,
  },
  {
    method: 'post',
    path: '/sales-order/convert-order-to-quote/:salesOrderId',
    tag: TAG,
    summary: 'Turn an OPEN order with nothing fulfilled back into a quote',
    scope: WRITE,
    schema: s.convertToQuote,
    idempotent: true,
    responses: { body: SalesOrder, errors: { 404: NOT_FOUND, 409: STATE, 422: LINE_RULES } },
    handler: c.toQuote,
  },
  {
    method: 'get',
    path: '/sales-order/:id/fulfillment',
    tag: TAG,
    summary: 'Ordered, fulfilled, returned, cancelled and remaining per item, and the fulfillments',
    scope: READ,
    schema: s.fulfillment,
    responses: { body: FulfillmentView, errors: { 404: NOT_FOUND } },
    handler: c.fulfillment,
  },
  {
    method: 'post',
    path: '/sales-order/:id/fulfill',
    tag: TAG,
    summary: 'Fulfil items (stock out at average cost)',
    scope: WRITE,
    schema: s.fulfill,
    idempotent: true,
    filialCheck: 'handler',
    status: 201,
    responses: {
      body: FulfillResult,
      errors: {
        404: [...NOT_FOUND, ...BOLETO_ACCOUNT_NOT_FOUND],
        409: STATE,
        422: [
          'ITEM_NOT_IN_ORDER',
          'QUANTITY_ABOVE_REMAINING',
          'INSUFFICIENT_STOCK',
          ...BOLETO_TERMS,
          'NOSSO_NUMERO_EXHAUSTED',
          'BR_CODE_INVALID',
        ],
      },
    },
    handler: c.fulfill,
  },
  {
    method: 'post',
    path: '/sales-order/:id/assign-customer',
    tag: TAG,
    summary: 'Assign the customer (not CANCELLED or GROUPED)',
    scope: WRITE,
    schema: s.assignCustomer,
    idempotent: true,
    responses: {
      body: SalesOrder,
      errors: {
        404: [...NOT_FOUND, 'CUSTOMER_NOT_FOUND', ...BOLETO_ACCOUNT_NOT_FOUND],
        409: STATE,
        422: ['CUSTOMER_INACTIVE', ...BOLETO_TERMS],
      },
    },
    handler: c.assign,
  },
  {
    method: 'patch',
    path: '/sales-order/:id',
    tag: TAG,
    summary: 'Edit an OPEN order or quote with nothing fulfilled (needs version)',
    scope: WRITE,
    schema: s.update,
    responses: {
      body: SalesOrder,
      errors: {
        404: [...NOT_FOUND, ...LINES, ...BOLETO_ACCOUNT_NOT_FOUND],
        409: [...STATE, 'STALE_VERSION'],
        422: [...LINE_RULES, 'ITEM_NOT_IN_ORDER', ...BOLETO_TERMS],
      },
    },
    handler: c.update,
  },
  {
    method: 'delete',
    path: '/sales-order/:id',
    tag: TAG,
    summary: 'Delete an OPEN order or quote with nothing fulfilled',
    scope: WRITE,
    schema: s.remove,
    status: 204,
    responses: { errors: { 404: NOT_FOUND, 409: STATE } },
    handler: c.remove,
  },
  {
    method: 'get',
    path: '/sales-order/:filialIdOrId',
    tag: TAG,
    summary: 'A filial id lists its orders; an order id reads that order',
    scope: READ,
    schema: s.listOrGet,
    filialCheck: 'handler',
    responses: {
      body: Joi.alternatives(SalesOrderPage, SalesOrder).description('a filial id: SalesOrderPage; an order id: SalesOrder'),
      errors: { 404: NOT_FOUND },
    },
    handler: c.listOrRead,
  },
]);
