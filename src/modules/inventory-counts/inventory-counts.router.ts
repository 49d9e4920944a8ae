import { defineRoutes } from '../../core/http/route';
import * as c from './inventory-counts.controller';
import { InventoryCount } from './inventory-counts.responses';
import { inventoryCountSchemas as s } from './inventory-counts.schemas';

const TAG = 'Stock counts';
const COUNT = 'inventory:count';
const WRITE = 'inventory:write';
const NOT_FOUND = { 404: ['INVENTORY_COUNT_NOT_FOUND'] };
const STATES = ['INVENTORY_COUNT_CLOSED', 'INVENTORY_COUNT_CANCELLED'];

/** Literal paths before parameterized ones. */
export const inventoryCountRoutes = defineRoutes([
  {
    method: 'post',
    path: '/inventory/counts',
    tag: TAG,
    summary:
      'Open a stock count sheet at this filial (x-filial-id): the products given, or every stock-controlled product with a balance there; counted blind',
    scope: WRITE,
    schema: s.create,
    idempotent: true,
    status: 201,
    responses: { body: InventoryCount, errors: { 404: ['PRODUCT_NOT_FOUND'], 422: ['INVENTORY_COUNT_EMPTY'] } },
    handler: c.create,
  },
  {
    method: 'get',
    path: '/inventory/counts/:id',
    tag: TAG,
    summary: 'One stock count with its lines; a counter’s token (without inventory:write) sees no expected quantity nor difference',
    scope: COUNT,
    schema: s.byId,
    responses: { body: InventoryCount, errors: NOT_FOUND },
    handler: c.detail,
  },
  {
    method: 'put',
    path: '/inventory/counts/:id/lines',
    tag: TAG,
    summary: 'Enter counted quantities (blind; a recount replaces the figure); the balance at that moment is kept for the close',
    scope: COUNT,
    schema: s.count,
    idempotent: true,
    responses: { body: InventoryCount, errors: { ...NOT_FOUND, 409: STATES, 422: ['PRODUCT_NOT_IN_COUNT'] } },
    handler: c.count,
  },
  {
    method: 'post',
    path: '/inventory/counts/:id/close',
    tag: TAG,
    summary:
      'Close the count: each difference (counted − the balance when counted) posted to the stock as an adjustment (reason INVENTORY_COUNT) at the average cost, and the snapshot valued at the average cost (the inventory of Bloco H)',
    scope: WRITE,
    schema: s.close,
    idempotent: true,
    responses: {
      body: InventoryCount,
      errors: {
        ...NOT_FOUND,
        409: [...STATES, 'STALE_VERSION', 'FISCAL_PERIOD_CLOSED'],
        422: ['INVENTORY_COUNT_INCOMPLETE', 'INSUFFICIENT_STOCK'],
      },
    },
    handler: c.close,
  },
  {
    method: 'post',
    path: '/inventory/counts/:id/cancel',
    tag: TAG,
    summary: 'Drop an open count; nothing is posted',
    scope: WRITE,
    schema: s.byId,
    idempotent: true,
    responses: { body: InventoryCount, errors: { ...NOT_FOUND, 409: [...STATES, 'STALE_VERSION'] } },
    handler: c.cancel,
  },
]);
