import { defineRoutes } from '../../core/http/route';
import * as c from './nfe.controller';
import { nfeSchemas as s } from './nfe.schemas';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
const BASE = '/entry-document/nfe';
const TAG = 'NF-e';

/** Literal paths before parameterized ones; all of them before the entry document's '/entry-document/:id'. */
export const nfeRoutes = defineRoutes([
  { method: 'post', path: `${BASE}/preview`, tag: TAG, summary: 'Parse and validate an NF-e XML ({ xml }, an XML body, or { accessKey } of a stored record): the invoice and its validation report', scope: READ, bodyFormat: 'xml', schema: s.preview, handler: c.preview },
  { method: 'post', path: `${BASE}/preview-import`, tag: TAG, summary: 'The preview plus the product-map resolution per item and the entry document draft an import would create', scope: READ, bodyFormat: 'xml', schema: s.previewImport, handler: c.previewImport },
  { method: 'post', path: `${BASE}/stage-xml`, tag: TAG, summary: 'Validate an NF-e XML and store it as the filial\'s inbound record (no draft); 201 new, 200 already stored', scope: WRITE, bodyFormat: 'xml', idempotent: true, status: 201, schema: s.stageXml, handler: c.stageXml },
  { method: 'post', path: `${BASE}/importar-xml`, tag: TAG, summary: 'Validate, stage and import an NF-e XML: creates the entry document DRAFT (origin NFE_XML)', scope: WRITE, bodyFormat: 'xml', idempotent: true, status: 201, schema: s.importXml, handler: c.importXml },
  { method: 'post', path: `${BASE}/importar`, tag: TAG, summary: 'Import a staged inbound record ({ inboundId } or { accessKey }): creates the entry document DRAFT', scope: WRITE, idempotent: true, status: 201, schema: s.importStaged, handler: c.importStaged },
  { method: 'get', path: `${BASE}/inbound/pendentes/:filialId`, tag: TAG, summary: 'Inbound NF-e of the filial still to import (PENDING, not cancelled), newest first', scope: READ, schema: s.pending, handler: c.pending },
  { method: 'get', path: `${BASE}/inbound/detail/:id/:filialId`, tag: TAG, summary: 'An inbound record with its parsed invoice, validation report and events', scope: READ, schema: s.detail, handler: c.detail },
  { method: 'get', path: `${BASE}/inbound/xml/:id/:filialId`, tag: TAG, summary: 'The stored XML of an inbound record, exactly as received (application/xml)', scope: READ, schema: s.detail, handler: c.xml },
  { method: 'get', path: `${BASE}/inbound/:filialId`, tag: TAG, summary: 'Inbound NF-e of the filial (filters: issuer, issue date range, status, manifestation, import status; paginated)', scope: READ, schema: s.list, handler: c.list },
]);
