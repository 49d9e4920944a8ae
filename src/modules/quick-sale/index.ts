/*
 * The quick-sale module's front door: its routes (POST /sales-order is quick sale's, dispatching to
 * sales-order's create) for the composition root (src/modules/index.ts), and the counter's
 * configuration the demo seed writes.
 */
export { quickSaleRoutes, salesOrderCreateRoutes } from './quick-sale.router';
export { findConfiguration, quickSaleConfigurationService } from './quick-sale-configuration.service';
export { counterSalesProvider } from './counter-sales.provider';
