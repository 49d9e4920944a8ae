import { defineRoutes } from '../../core/http/route';
import { ProductPage } from '../catalog';
import * as c from './product-map.controller';
import { AutoCreateResult, NextCode, ProductMapEntry, ProductMatch, SupplierHistory } from './product-map.responses';
import { productMapSchemas as s } from './product-map.schemas';

const TAG = 'Product map';
const READ = 'entry-document:read';
const WRITE = 'product-map:write';

const NOT_FOUND = ['PRODUCT_MAP_ENTRY_NOT_FOUND'];

/** SPEC §5. Literal paths first; these must be mounted before any `/entry-document/:id` route. */
export const productMapRoutes = defineRoutes([
  {
    method: 'post',
    path: '/entry-document/product-map/match',
    tag: TAG,
    summary: 'Resolve supplier items (map → GTIN → description suggestions); up to 990 items',
    scope: READ,
    schema: s.match,
    responses: { body: ProductMatch },
    handler: c.match,
  },
  {
    method: 'post',
    path: '/entry-document/product-map/link',
    tag: TAG,
    summary: 'Map a supplier code to a product (upsert; 201 when created, 200 when the entry existed)',
    scope: WRITE,
    schema: s.link,
    idempotent: true,
    status: 201,
    responses: {
      body: ProductMapEntry,
      alsoStatus: 200,
      errors: { 404: ['PRODUCT_NOT_FOUND'], 409: ['STALE_VERSION'], 422: ['PRODUCT_INACTIVE'] },
    },
    handler: c.link,
  },
  {
    method: 'post',
    path: '/entry-document/product-map/auto-create',
    tag: TAG,
    summary: 'Create a product from a supplier item and map the item to it',
    scope: WRITE,
    schema: s.autoCreate,
    idempotent: true,
    status: 201,
    responses: {
      body: AutoCreateResult,
      errors: { 400: ['INVALID_GTIN'], 409: ['PRODUCT_MAP_ENTRY_EXISTS', 'PRODUCT_GTIN_TAKEN', 'PRODUCT_CODE_TAKEN'] },
    },
    handler: c.autoCreate,
  },
  {
    method: 'get',
    path: '/entry-document/product-map/search',
    tag: TAG,
    summary: 'Search own products by code, code prefix, GTIN or name words (paginated)',
    scope: READ,
    schema: s.search,
    responses: { body: ProductPage },
    handler: c.search,
  },
  {
    method: 'get',
    path: '/entry-document/product-map/next-code',
    tag: TAG,
    summary: 'Reserve the next free product code',
    scope: WRITE,
    schema: s.nextCode,
    responses: { body: NextCode },
    handler: c.getNextCode,
  },
  {
    method: 'get',
    path: '/entry-document/product-map/history/:supplierDocument/:filialId',
    tag: TAG,
    summary: "A supplier's entries with use counts and last purchases at the filial",
    scope: READ,
    schema: s.history,
    responses: { body: SupplierHistory },
    handler: c.history,
  },
  {
    method: 'patch',
    path: '/entry-document/product-map/:id/conversion-factor',
    tag: TAG,
    summary: 'Change the conversion factor (future imports only; audited)',
    scope: WRITE,
    schema: s.conversionFactor,
    responses: { body: ProductMapEntry, errors: { 404: NOT_FOUND, 409: ['STALE_VERSION'] } },
    handler: c.patchConversionFactor,
  },
  {
    method: 'delete',
    path: '/entry-document/product-map/:id',
    tag: TAG,
    summary: 'Delete a map entry (audited)',
    scope: WRITE,
    schema: s.remove,
    status: 204,
    responses: { errors: { 404: NOT_FOUND } },
    handler: c.remove,
  },
]);
