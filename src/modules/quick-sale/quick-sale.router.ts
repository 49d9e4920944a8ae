import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import { SalesOrderResponse as SalesOrder, salesOrderErrors } from '../sales-order';
import * as c from './quick-sale.controller';
import { ConfigurationValidation, QuickSaleConfiguration, QuickSaleOrder } from './quick-sale.responses';
import { quickSaleSchemas as s } from './quick-sale.schemas';

const { LINES, LINE_RULES, STATE } = salesOrderErrors;
/** What the sale's NFC-e may refuse (the filial issues one with every quick sale): the whole sale is refused. */
const NFCE_ERRORS = [
  'CONSUMER_IDENTIFICATION_REQUIRED',
  'NFCE_NOT_CONFIGURED',
  'SERIES_NOT_CONFIGURED',
  'SERIES_EXHAUSTED',
  'FISCAL_ENGINE_UNAVAILABLE',
  'FISCAL_DATA_MISSING',
  'CERTIFICATE_REQUIRED',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_NOT_YET_VALID',
  'CERTIFICATE_CNPJ_MISMATCH',
  'CERTIFICATE_WITHOUT_CNPJ',
];

export const quickSaleRoutes = defineRoutes([
  {
    method: 'get',
    path: '/quick-sale/configuration/:filialId',
    tag: 'Quick sale',
    summary: 'Quick-sale configuration of a filial (defaults with configured:false until saved)',
    schema: s.getConfiguration,
    responses: { body: QuickSaleConfiguration },
    handler: c.getConfiguration,
  },
  {
    method: 'put',
    path: '/quick-sale/configuration/:filialId',
    tag: 'Quick sale',
    summary: 'Save the quick-sale configuration (needs version after the first save)',
    scope: 'quick-sale:write',
    schema: s.putConfiguration,
    responses: { body: QuickSaleConfiguration, errors: { 409: ['STALE_VERSION'], 422: ['INVALID_QUICK_SALE_CONFIGURATION'] } },
    handler: c.putConfiguration,
  },
  {
    method: 'get',
    path: '/quick-sale/validate-configuration/:filialId',
    tag: 'Quick sale',
    summary: 'Every problem that stops a quick sale in this filial',
    schema: s.validateConfiguration,
    responses: { body: ConfigurationValidation },
    handler: c.validateConfiguration,
  },
]);

/**
 * POST /sales-order: an order or a quote (sales-order's create), or with flowMode QUICK_SALE the counter
 * sale. Quick sale owns the route because it depends on sales-order, not the reverse; src/modules/index.ts
 * mounts it just before sales-order's routes (its place in the OpenAPI document).
 */
export const salesOrderCreateRoutes = defineRoutes([
  {
    method: 'post',
    path: '/sales-order',
    tag: 'Sales orders',
    summary: 'Create an order or a quote (flowMode QUICK_SALE: the quick-sale flow)',
    scope: 'sales-order:write',
    schema: s.createSalesOrder,
    idempotent: true,
    filialCheck: 'handler',
    status: 201,
    responses: {
      body: Joi.alternatives(SalesOrder, QuickSaleOrder).description('SalesOrder; with flowMode QUICK_SALE the FULFILLED QuickSaleOrder'),
      errors: {
        400: ['MISSING_FILIAL'],
        404: [...LINES, ...salesOrderErrors.BOLETO_ACCOUNT_NOT_FOUND],
        409: ['FISCAL_PERIOD_CLOSED', ...STATE, 'CASH_SESSION_REQUIRED', 'CASH_SESSION_NOT_OPEN'],
        422: [
          ...LINE_RULES,
          ...salesOrderErrors.BOLETO_TERMS,
          'NOSSO_NUMERO_EXHAUSTED',
          'BR_CODE_INVALID',
          'INSUFFICIENT_STOCK',
          'QUICK_SALE_NOT_CONFIGURED',
          'CUSTOMER_REQUIRED',
          'PAYMENTS_REQUIRED',
          'PAYMENT_METHOD_NOT_ALLOWED',
          'PAYMENT_INSUFFICIENT',
          'PAYMENT_EXCEEDS_TOTAL',
          'PAYMENT_IDENTIFICATION_MISMATCH',
          'DISCOUNT_ABOVE_LIMIT',
          ...NFCE_ERRORS,
        ],
      },
    },
    handler: c.createSalesOrder,
  },
]);
