/*
 * The sales-order module's front door (SPEC §10): creating, fulfilling and reading sales orders, the
 * returned quantities, the rows other modules read, and the HTTP contract pieces quick sale reuses.
 * Everything else in src/modules/sales-order is private (docs/architecture.md, "Module seams").
 */
export { FulfillmentItem } from './entities/fulfillment-item.entity';
export { Fulfillment } from './entities/fulfillment.entity';
export { SalesOrderItem } from './entities/sales-order-item.entity';
export { SalesOrder } from './entities/sales-order.entity';
export { toSalesOrderDto } from './sales-order.mapper';
export { SalesOrder as SalesOrderResponse, salesOrderErrors, salesOrderKeys } from './sales-order.responses';
export { salesOrderRoutes } from './sales-order.router';
export { installmentDaysOf, netValueOf } from './sales-order.rules';
export { createFields } from './sales-order.schemas';
export type { CreateFields } from './sales-order.schemas';
export { canDo, RETURNABLE_STATUSES } from './sales-order.state';
export { createFromRequest, createSalesOrder, reserveSalesOrderCode } from './services/create.service';
export type { CreateRequest } from './services/create.service';
export { fulfillSalesOrderItems } from './services/fulfill.service';
export { startDeliveredOrder } from './services/deliver.service';
export { getFulfillmentForBilling, getOrder } from './services/query.service';
export type { SalesOrderView } from './services/query.service';
export { recordReturnedQuantities } from './services/returned.service';
export { resolveProducts } from './services/shared';
export { orderFiscalDocuments } from './sales-order.ports';
export type { OrderFiscalDocuments, OrderFiscalDocumentView } from './sales-order.ports';
