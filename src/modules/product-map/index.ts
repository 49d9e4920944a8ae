/*
 * The product-map module's front door: matching supplier items to products and recording the links an
 * import makes. Everything else in src/modules/product-map is private (docs/architecture.md, "Module
 * seams").
 */
export { productMapRoutes } from './product-map.router';
export { linkSupplierItem, recordMapUse } from './product-map.service';
export { matchSupplierItems } from './product-match.service';
export type { ItemMatch } from './product-match.service';
export { purchaseHistory } from './product-map.ports';
export type { PurchaseHistory, PurchaseRow } from './product-map.ports';
