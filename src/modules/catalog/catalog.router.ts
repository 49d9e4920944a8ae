import { defineRoutes, RouteDef } from '../../core/http/route';
import * as c from './catalog.controller';
import { customerSchemas, paymentMethodSchemas, productSchemas, sellerSchemas, stockSchemas, supplierSchemas } from './catalog.schemas';

const READ = 'catalog:read';
const WRITE = 'catalog:write';

function resourceRoutes(path: string, label: string, schemas: typeof productSchemas, h: typeof c.products): RouteDef[] {
  return [
    { method: 'get', path, tag: 'Catalog', summary: `Search ${label}s (paginated)`, scope: READ, schema: schemas.list, handler: h.list },
    { method: 'get', path: `${path}/:id`, tag: 'Catalog', summary: `Read one ${label}`, scope: READ, schema: schemas.get, handler: h.get },
    { method: 'post', path, tag: 'Catalog', summary: `Create a ${label}`, scope: WRITE, schema: schemas.create, idempotent: true, status: 201, handler: h.create },
    { method: 'patch', path: `${path}/:id`, tag: 'Catalog', summary: `Update a ${label} (needs version)`, scope: WRITE, schema: schemas.update, handler: h.update },
  ];
}

export const catalogRoutes = defineRoutes([
  ...resourceRoutes('/catalog/products', 'product', productSchemas, c.products),
  ...resourceRoutes('/catalog/customers', 'customer', customerSchemas, c.customers),
  ...resourceRoutes('/catalog/sellers', 'seller', sellerSchemas, c.sellers),
  ...resourceRoutes('/catalog/suppliers', 'supplier', supplierSchemas, c.suppliers),
  { method: 'get', path: '/catalog/payment-methods', tag: 'Catalog', summary: 'Payment methods', scope: READ, schema: paymentMethodSchemas.list, handler: c.paymentMethods.list },
  { method: 'post', path: '/catalog/payment-methods', tag: 'Catalog', summary: 'Create a payment method', scope: WRITE, schema: paymentMethodSchemas.create, idempotent: true, status: 201, handler: c.paymentMethods.create },
  { method: 'get', path: '/catalog/stock/:filialId', tag: 'Catalog', summary: 'Stock balances of a filial (optionally ?productId=)', scope: READ, schema: stockSchemas.list, handler: c.stock },
]);
