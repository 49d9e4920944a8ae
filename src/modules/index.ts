import type { RouteDef } from '../core/http/route';
import { catalogRoutes } from './catalog/catalog.router';
import { eventRoutes } from './events/events.router';
import { quickSaleRoutes } from './quick-sale/quick-sale.router';
import { systemRoutes } from './system/system.router';
import { tenancyRoutes } from './tenancy/tenancy.router';
import { salesOrderRoutes } from './sales-order/sales-order.router';

/** Every module's routes, in mounting order (specific paths before parameterized ones within a module). */
export function allRoutes(): RouteDef[] {
  return [...systemRoutes, ...tenancyRoutes, ...catalogRoutes, ...eventRoutes, ...quickSaleRoutes, ...salesOrderRoutes];
}
