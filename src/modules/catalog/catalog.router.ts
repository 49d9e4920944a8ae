import { defineRoutes } from '../../core/http/route';
import * as c from './catalog.controller';
import {
  Customer, CustomerPage, PaymentMethod, PaymentMethodList, Product, ProductPage, Seller, SellerPage, StockBalancePage, Supplier, SupplierPage,
} from './catalog.responses';
import { customerSchemas, paymentMethodSchemas, productSchemas, sellerSchemas, stockSchemas, supplierSchemas } from './catalog.schemas';

const READ = 'catalog:read';
const WRITE = 'catalog:write';
const TAG = 'Catalog';
const STALE = { 409: ['STALE_VERSION'] };

export const catalogRoutes = defineRoutes([
  { method: 'get', path: '/catalog/products', tag: TAG, summary: 'Search products (paginated)', scope: READ, schema: productSchemas.list, responses: { body: ProductPage }, handler: c.products.list },
  { method: 'get', path: '/catalog/products/:id', tag: TAG, summary: 'Read one product', scope: READ, schema: productSchemas.get, responses: { body: Product, errors: { 404: ['PRODUCT_NOT_FOUND'] } }, handler: c.products.get },
  { method: 'post', path: '/catalog/products', tag: TAG, summary: 'Create a product', scope: WRITE, schema: productSchemas.create, idempotent: true, status: 201, responses: { body: Product, errors: { 400: ['INVALID_GTIN', 'INVALID_NCM', 'TAX_GROUP_NOT_FOUND'], 409: ['PRODUCT_CODE_TAKEN', 'DUPLICATE'] } }, handler: c.products.create },
  { method: 'patch', path: '/catalog/products/:id', tag: TAG, summary: 'Update a product (needs version)', scope: WRITE, schema: productSchemas.update, responses: { body: Product, errors: { 400: ['INVALID_GTIN', 'INVALID_NCM', 'TAX_GROUP_NOT_FOUND'], 404: ['PRODUCT_NOT_FOUND'], 409: ['STALE_VERSION', 'PRODUCT_CODE_TAKEN', 'DUPLICATE'] } }, handler: c.products.update },

  { method: 'get', path: '/catalog/customers', tag: TAG, summary: 'Search customers (paginated)', scope: READ, schema: customerSchemas.list, responses: { body: CustomerPage }, handler: c.customers.list },
  { method: 'get', path: '/catalog/customers/:id', tag: TAG, summary: 'Read one customer', scope: READ, schema: customerSchemas.get, responses: { body: Customer, errors: { 404: ['CUSTOMER_NOT_FOUND'] } }, handler: c.customers.get },
  { method: 'post', path: '/catalog/customers', tag: TAG, summary: 'Create a customer', scope: WRITE, schema: customerSchemas.create, idempotent: true, status: 201, responses: { body: Customer, errors: { 400: ['INVALID_STATE_REGISTRATION', 'INVALID_FISCAL_DATA'], 409: ['DUPLICATE'] } }, handler: c.customers.create },
  { method: 'patch', path: '/catalog/customers/:id', tag: TAG, summary: 'Update a customer (needs version)', scope: WRITE, schema: customerSchemas.update, responses: { body: Customer, errors: { 400: ['INVALID_STATE_REGISTRATION', 'INVALID_FISCAL_DATA'], 404: ['CUSTOMER_NOT_FOUND'], ...STALE } }, handler: c.customers.update },

  { method: 'get', path: '/catalog/sellers', tag: TAG, summary: 'Search sellers (paginated)', scope: READ, schema: sellerSchemas.list, responses: { body: SellerPage }, handler: c.sellers.list },
  { method: 'get', path: '/catalog/sellers/:id', tag: TAG, summary: 'Read one seller', scope: READ, schema: sellerSchemas.get, responses: { body: Seller, errors: { 404: ['SELLER_NOT_FOUND'] } }, handler: c.sellers.get },
  { method: 'post', path: '/catalog/sellers', tag: TAG, summary: 'Create a seller', scope: WRITE, schema: sellerSchemas.create, idempotent: true, status: 201, responses: { body: Seller }, handler: c.sellers.create },
  { method: 'patch', path: '/catalog/sellers/:id', tag: TAG, summary: 'Update a seller (needs version)', scope: WRITE, schema: sellerSchemas.update, responses: { body: Seller, errors: { 404: ['SELLER_NOT_FOUND'], ...STALE } }, handler: c.sellers.update },

  { method: 'get', path: '/catalog/suppliers', tag: TAG, summary: 'Search suppliers (paginated)', scope: READ, schema: supplierSchemas.list, responses: { body: SupplierPage }, handler: c.suppliers.list },
  { method: 'get', path: '/catalog/suppliers/:id', tag: TAG, summary: 'Read one supplier', scope: READ, schema: supplierSchemas.get, responses: { body: Supplier, errors: { 404: ['SUPPLIER_NOT_FOUND'] } }, handler: c.suppliers.get },
  { method: 'post', path: '/catalog/suppliers', tag: TAG, summary: 'Create a supplier', scope: WRITE, schema: supplierSchemas.create, idempotent: true, status: 201, responses: { body: Supplier, errors: { 409: ['SUPPLIER_EXISTS', 'DUPLICATE'] } }, handler: c.suppliers.create },
  { method: 'patch', path: '/catalog/suppliers/:id', tag: TAG, summary: 'Update a supplier (needs version)', scope: WRITE, schema: supplierSchemas.update, responses: { body: Supplier, errors: { 404: ['SUPPLIER_NOT_FOUND'], 409: ['STALE_VERSION', 'DUPLICATE'] } }, handler: c.suppliers.update },

  { method: 'get', path: '/catalog/payment-methods', tag: TAG, summary: 'Payment methods', scope: READ, schema: paymentMethodSchemas.list, responses: { body: PaymentMethodList }, handler: c.paymentMethods.list },
  { method: 'post', path: '/catalog/payment-methods', tag: TAG, summary: 'Create a payment method', scope: WRITE, schema: paymentMethodSchemas.create, idempotent: true, status: 201, responses: { body: PaymentMethod, errors: { 409: ['PAYMENT_METHOD_EXISTS', 'DUPLICATE'] } }, handler: c.paymentMethods.create },
  { method: 'get', path: '/catalog/stock/:filialId', tag: TAG, summary: 'Stock balances of a filial (optionally ?productId=)', scope: READ, schema: stockSchemas.list, responses: { body: StockBalancePage }, handler: c.stock },
]);
