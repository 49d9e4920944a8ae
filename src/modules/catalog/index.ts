/*
 * The catalog module's front door: what other modules may use of the master data it owns (products,
 * customers, sellers, suppliers, payment methods), its word search (and the indexers the demo seed
 * runs) and the product code sequence.
 * Everything else in src/modules/catalog is private (docs/architecture.md, "Module seams").
 */
export { catalogResource } from './catalog-resource';
export type { ListQuery } from './catalog-resource';
export { toProductDto } from './catalog.mapper';
export { taxGroupLookup } from './catalog.ports';
export type { TaxGroupLookup } from './catalog.ports';
export { Product as ProductResponse, ProductPage } from './catalog.responses';
export { catalogRoutes } from './catalog.router';
export { Customer } from './entities/customer.entity';
export { PaymentMethod, settlementOf } from './entities/payment-method.entity';
export type { PaymentKind } from './entities/payment-method.entity';
export { Product } from './entities/product.entity';
export { Seller } from './entities/seller.entity';
export { Supplier } from './entities/supplier.entity';
export { findCustomerAndSellerIds } from './party-search-index';
export { findOrCreateSupplier } from './party.service';
export { activePaymentMethod } from './payment-method.service';
export { nameTokenFrequencies, nameTokenPostings } from './product-search-index';
export { nextProductCode, productService } from './product.service';
export { productSummaries, supplierByDocument } from './product-summaries';
export type { ProductSummaryRow } from './product-summaries';
export { supplierFilter } from './supplier-filter';
export { indexCustomers, indexSellers } from './party-search-index';
export { indexProductNames } from './product-search-index';
export { PRODUCT_CODE_SEQUENCE } from './product.service';
