import { defineRoutes } from '../../core/http/route';
import * as c from './product-map.controller';
import { productMapSchemas as s } from './product-map.schemas';

const BASE = '/entry-document/product-map';
const TAG = 'Product map';
const READ = 'entry-document:read';
const WRITE = 'product-map:write';

/** SPEC §5. Literal paths first; these must be mounted before any `/entry-document/:id` route. */
export const productMapRoutes = defineRoutes([
  { method: 'post', path: `${BASE}/match`, tag: TAG, summary: 'Resolve supplier items (map → GTIN → description suggestions); up to 990 items', scope: READ, schema: s.match, handler: c.match },
  { method: 'post', path: `${BASE}/link`, tag: TAG, summary: 'Map a supplier code to a product (upsert; 201 when created)', scope: WRITE, schema: s.link, idempotent: true, handler: c.link },
  { method: 'post', path: `${BASE}/auto-create`, tag: TAG, summary: 'Create a product from a supplier item and map the item to it', scope: WRITE, schema: s.autoCreate, idempotent: true, status: 201, handler: c.autoCreate },
  { method: 'get', path: `${BASE}/search`, tag: TAG, summary: 'Search own products by code, code prefix, GTIN or name words (paginated)', scope: READ, schema: s.search, handler: c.search },
  { method: 'get', path: `${BASE}/next-code`, tag: TAG, summary: 'Reserve the next free product code', scope: WRITE, schema: s.nextCode, handler: c.getNextCode },
  { method: 'get', path: `${BASE}/history/:supplierDocument/:filialId`, tag: TAG, summary: "A supplier's entries with use counts and last purchases at the filial", scope: READ, schema: s.history, handler: c.history },
  { method: 'patch', path: `${BASE}/:id/conversion-factor`, tag: TAG, summary: 'Change the conversion factor (future imports only; audited)', scope: WRITE, schema: s.conversionFactor, handler: c.patchConversionFactor },
  { method: 'delete', path: `${BASE}/:id`, tag: TAG, summary: 'Delete a map entry (audited)', scope: WRITE, schema: s.remove, status: 204, handler: c.remove },
]);
