import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import * as c from './nfe.controller';
import {
  INBOUND_NOT_FOUND,
  NfeImport,
  NfeImportPreview,
  NfeInboundDetail,
  NfeInboundPage,
  NfePreview,
  NfeStaged,
  REPORT_BLOCKING,
  XML_READ,
} from './nfe.responses';
import { nfeSchemas as s } from './nfe.schemas';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
const TAG = 'NF-e';

/* Problem codes of reading, validating and importing an NF-e. */
const LINES = ['PRODUCT_NOT_FOUND', 'SUPPLIER_NOT_FOUND', 'PURCHASE_ORDER_NOT_FOUND'];
const READ_XML = {
  400: [...XML_READ, 'MISSING_TENANT_HEADER'],
  404: ['FILIAL_NOT_FOUND', ...INBOUND_NOT_FOUND, ...LINES],
  422: ['NFE_XML_NOT_AVAILABLE'],
};
const IMPORT = {
  400: [...XML_READ, 'MISSING_TENANT_HEADER'],
  404: ['FILIAL_NOT_FOUND', ...INBOUND_NOT_FOUND, ...LINES],
  409: ['NFE_ALREADY_IMPORTED'],
  422: [...REPORT_BLOCKING, 'NFE_XML_NOT_AVAILABLE'],
};

/** Literal paths before parameterized ones; all of them before the entry document's '/entry-document/:id'. */
export const nfeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/entry-document/nfe/preview',
    tag: TAG,
    summary:
      'Parse and validate an NF-e XML ({ xml }, an XML body, or { accessKey } of a stored record): the invoice and its validation report',
    scope: READ,
    bodyFormat: 'xml',
    schema: s.preview,
    responses: { body: NfePreview, errors: READ_XML },
    handler: c.preview,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/preview-import',
    tag: TAG,
    summary: 'The preview plus the product-map resolution per item and the entry document draft an import would create',
    scope: READ,
    bodyFormat: 'xml',
    schema: s.previewImport,
    responses: { body: NfeImportPreview, errors: READ_XML },
    handler: c.previewImport,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/stage-xml',
    tag: TAG,
    summary: "Validate an NF-e XML and store it as the filial's inbound record (no draft); 201 new, 200 already stored",
    scope: WRITE,
    bodyFormat: 'xml',
    idempotent: true,
    status: 201,
    schema: s.stageXml,
    responses: { body: NfeStaged, alsoStatus: 200, errors: { 400: READ_XML[400], 404: ['FILIAL_NOT_FOUND'], 422: REPORT_BLOCKING } },
    handler: c.stageXml,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/importar-xml',
    tag: TAG,
    summary: 'Validate, stage and import an NF-e XML: creates the entry document DRAFT (origin NFE_XML)',
    scope: WRITE,
    bodyFormat: 'xml',
    idempotent: true,
    status: 201,
    schema: s.importXml,
    responses: { body: NfeImport, errors: IMPORT },
    handler: c.importXml,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/importar',
    tag: TAG,
    summary: 'Import a staged inbound record ({ inboundId } or { accessKey }): creates the entry document DRAFT',
    scope: WRITE,
    idempotent: true,
    status: 201,
    schema: s.importStaged,
    responses: { body: NfeImport, errors: IMPORT },
    handler: c.importStaged,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/pendentes/:filialId',
    tag: TAG,
    summary: 'Inbound NF-e of the filial still to import (PENDING, not cancelled), newest first',
    scope: READ,
    schema: s.pending,
    responses: { body: NfeInboundPage },
    handler: c.pending,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/detail/:id/:filialId',
    tag: TAG,
    summary: 'An inbound record with its parsed invoice, validation report and events',
    scope: READ,
    schema: s.detail,
    responses: { body: NfeInboundDetail, errors: { 404: INBOUND_NOT_FOUND } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/xml/:id/:filialId',
    tag: TAG,
    summary: 'The stored XML of an inbound record, exactly as received (application/xml)',
    scope: READ,
    schema: s.detail,
    responses: {
      body: Joi.string().description('the procNFe XML as received'),
      contentType: 'application/xml',
      errors: { 404: INBOUND_NOT_FOUND, 422: ['NFE_XML_NOT_AVAILABLE'] },
    },
    handler: c.xml,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/:filialId',
    tag: TAG,
    summary: 'Inbound NF-e of the filial (filters: issuer, issue date range, status, manifestation, import status; paginated)',
    scope: READ,
    schema: s.list,
    responses: { body: NfeInboundPage },
    handler: c.list,
  },
]);
