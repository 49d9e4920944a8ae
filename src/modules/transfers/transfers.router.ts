import { defineRoutes } from '../../core/http/route';
import * as c from './transfers.controller';
import { Transfer } from './transfers.responses';
import { transferSchemas as s } from './transfers.schemas';

const TAG = 'Transfers';
const CERTIFICATE_USE = [
  'CERTIFICATE_REQUIRED',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_NOT_YET_VALID',
  'CERTIFICATE_CNPJ_MISMATCH',
  'CERTIFICATE_WITHOUT_CNPJ',
];

/** Literal paths before parameterized ones. */
export const transferRoutes = defineRoutes([
  {
    method: 'get',
    path: '/transfers/detail/:id',
    tag: TAG,
    summary: 'One transfer with its units, costs and NF-e',
    scope: 'invoice:read',
    schema: s.byId,
    responses: { body: Transfer, errors: { 404: ['TRANSFER_NOT_FOUND'] } },
    handler: c.detail,
  },
  {
    method: 'post',
    path: '/transfers',
    tag: TAG,
    summary:
      'Transfer goods from this filial (x-filial-id) to another of the company: its NF-e (CFOP 5152/6152, 5409/6409 for ST goods, from the tax engine) is issued now; when authorized the units leave at the average cost, cancelling the NF-e (POST /invoices/:id/cancel) brings them back; the receiving filial books them by importing the NF-e',
    scope: 'invoice:write',
    schema: s.create,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: Transfer,
      errors: {
        404: ['FILIAL_NOT_FOUND', 'PRODUCT_NOT_FOUND'],
        409: ['FISCAL_PERIOD_CLOSED', 'ALREADY_INVOICED'],
        422: [
          'TRANSFER_SAME_FILIAL',
          'INSUFFICIENT_STOCK',
          'FISCAL_RULE_MISSING',
          'FISCAL_DATA_INVALID',
          'FISCAL_DATA_MISSING',
          ...CERTIFICATE_USE,
        ],
        502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'],
        503: ['SEFAZ_UNAVAILABLE'],
        504: ['SEFAZ_TIMEOUT'],
      },
    },
    handler: c.create,
  },
]);
