import { defineRoutes } from '../../core/http/route';
import * as c from './supplier-returns.controller';
import { SupplierReturnableLines, SupplierReturnDetail, SupplierReturnPage, SupplierReturnPreview } from './supplier-returns.responses';
import { supplierReturnSchemas as s } from './supplier-returns.schemas';

const TAG = 'Supplier returns';
const NOT_RETURNABLE = ['SUPPLIER_RETURN_LINE_NOT_RETURNABLE', 'SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE'];

export const supplierReturnRoutes = defineRoutes([
  {
    method: 'get',
    path: '/supplier-returns/returnable-items/:entryDocumentId',
    tag: TAG,
    summary: 'Lines of a confirmed entry document with what can still go back to the supplier',
    scope: 'supplier-returns:read',
    schema: s.returnable,
    responses: { body: SupplierReturnableLines, errors: { 404: ['ENTRY_DOCUMENT_NOT_FOUND'] } },
    handler: c.returnable,
  },
  {
    method: 'post',
    path: '/supplier-returns/preview',
    tag: TAG,
    summary:
      'Preview a return to the supplier: the NF-e de devolução, stock out at entry cost, credits reversed, payables abated (writes nothing)',
    scope: 'supplier-returns:write',
    schema: s.preview,
    responses: {
      body: SupplierReturnPreview,
      errors: {
        404: ['ENTRY_DOCUMENT_NOT_FOUND', 'ENTRY_DOCUMENT_ITEM_NOT_FOUND'],
        409: ['ENTRY_DOCUMENT_DRAFT', 'ENTRY_DOCUMENT_CANCELLED'],
        422: NOT_RETURNABLE,
      },
    },
    handler: c.preview,
  },
  {
    method: 'post',
    path: '/supplier-returns/issue/:entryDocumentId',
    tag: TAG,
    summary:
      "Return goods of a confirmed entry document to the supplier: our NF-e de devolução (tpNF 1, finNFe 4, refNFe to the supplier's key) is issued; its authorization posts the stock out at entry cost, reverses the credits, abates the payables (or a supplier credit) and reduces purchase-order receipts",
    scope: 'supplier-returns:write',
    schema: s.issue,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: SupplierReturnDetail,
      errors: {
        404: ['ENTRY_DOCUMENT_NOT_FOUND', 'ENTRY_DOCUMENT_ITEM_NOT_FOUND', 'NFE_INBOUND_NOT_FOUND'],
        409: ['FISCAL_PERIOD_CLOSED', 'ENTRY_DOCUMENT_DRAFT', 'ENTRY_DOCUMENT_CANCELLED', 'ALREADY_INVOICED'],
        422: [
          ...NOT_RETURNABLE,
          'SUPPLIER_NFE_REQUIRED',
          'NFE_XML_NOT_AVAILABLE',
          'INSUFFICIENT_STOCK',
          'RETURN_NOT_POSSIBLE',
          'SUPPLIER_RETURN_NOT_ISSUABLE',
          'FISCAL_DATA_MISSING',
          'SERIES_EXHAUSTED',
          'CERTIFICATE_REQUIRED',
          'CERTIFICATE_EXPIRED',
          'CERTIFICATE_NOT_YET_VALID',
          'CERTIFICATE_CNPJ_MISMATCH',
          'CERTIFICATE_WITHOUT_CNPJ',
        ],
        502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'],
        503: ['SEFAZ_UNAVAILABLE'],
        504: ['SEFAZ_TIMEOUT'],
      },
    },
    handler: c.issue,
  },
  {
    method: 'get',
    path: '/supplier-returns/list/:filialId',
    tag: TAG,
    summary: 'Returns to suppliers of a filial',
    scope: 'supplier-returns:read',
    schema: s.list,
    responses: { body: SupplierReturnPage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/supplier-returns/detail/:id',
    tag: TAG,
    summary: 'One return to the supplier, with what it abated and credited',
    scope: 'supplier-returns:read',
    schema: s.detail,
    responses: { body: SupplierReturnDetail, errors: { 404: ['SUPPLIER_RETURN_NOT_FOUND'] } },
    handler: c.detail,
  },
]);
