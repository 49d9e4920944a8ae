import Joi from 'joi';
import { date, hashid, money, named, obj, oneOf, page, percent, quantity, timestamp, unitPrice } from '../../core/http/response-schema';
import { INVOICE_STATUSES } from './invoices.state';

/* Response bodies of /invoices (mirrors invoices.mapper.ts). */

const KEY = '35261111222333000181550010000001231123456780';
const nullableString = () => Joi.string().allow(null);
const Totals = obj({})
  .pattern(Joi.string(), money())
  .description('ICMSTot values of the document (vBC, vICMS, vST, vProd, vFrete, vDesc, vIPI, vPIS, vCOFINS, vNF, vTotTrib…)');
const Installment = obj({ number: Joi.string().example('001'), dueDate: date(), amount: money() });

export const InvoiceEvent = named(
  'InvoiceEvent',
  obj({
    type: oneOf('110111', '110110'),
    kind: oneOf('CANCELLATION', 'CORRECTION'),
    sequence: Joi.number().integer(),
    text: Joi.string(),
    cStat: Joi.string().example('135'),
    xMotivo: Joi.string(),
    protocol: Joi.string(),
    registeredAt: timestamp(),
  }),
);

const invoiceKeys = {
  id: hashid('invoice'),
  filialId: hashid('filial'),
  salesOrderId: hashid('sales-order').allow(null),
  fulfillmentId: hashid('fulfillment').allow(null),
  customerId: hashid('customer').allow(null),
  source: oneOf('FULFILLMENT', 'ORDER', 'CUSTOMER_RETURN', 'SUPPLIER_RETURN', 'TRANSFER'),
  sourceId: Joi.string().allow(null).description('Public id of the return, supplier return or transfer issued; null for billing'),
  direction: Joi.number().valid(0, 1).description('tpNF: 0 entry, 1 exit'),
  purpose: Joi.number().valid(1, 2, 3, 4).description('finNFe: 1 normal, 4 devolução'),
  references: Joi.array().items(Joi.string()).description('NFref/refNFe keys'),
  model: Joi.number().integer().example(55),
  series: Joi.number().integer().example(1),
  number: Joi.number().integer().example(123),
  accessKey: Joi.string().example(KEY),
  status: oneOf(...INVOICE_STATUSES),
  emissionType: Joi.number().integer().valid(1, 6, 7).description('tpEmis: 1 normal, 6 SVC-AN, 7 SVC-RS'),
  contingencyReason: nullableString(),
  issuedAt: Joi.string().example('2026-11-27T10:15:00-03:00').description('dhEmi as written in the XML'),
  total: money(),
  cStat: nullableString().example('100'),
  xMotivo: nullableString().example('Autorizado o uso da NF-e'),
  protocol: nullableString().example('135260000012345'),
  authorizedAt: timestamp().allow(null),
  cancelledAt: timestamp().allow(null),
  cancelProtocol: nullableString(),
  correctionSequence: Joi.number().integer(),
  lastAttempt: obj({
    at: timestamp(),
    error: nullableString().example(
      'Sem resposta da SEFAZ: Network failure: ECONNRESET; consulta: 108 Servico Paralisado Momentaneamente (curto prazo)',
    ),
  })
    .allow(null)
    .description('The last exchange with the authority: when, and what failed (null when it answered); null before the first one'),
  contingencyOf: hashid('invoice')
    .allow(null)
    .description(
      "The sale's first attempt this contingency document replaces (its answer was lost, then the authority went down): consulted when the authority is back",
    ),
  recipient: obj({ name: nullableString(), document: nullableString(), email: nullableString() }),
  operationNature: Joi.string().example('Venda de mercadoria'),
  itemCount: Joi.number().integer(),
  totals: Totals,
  installments: Joi.array().items(Installment),
  additionalInfo: Joi.string(),
  warnings: Joi.array()
    .items(Joi.string())
    .description('what the tax engine flagged without blocking, e.g. no Lei 12.741 (IBPT) table in force for an item’s NCM'),
  email: obj({
    status: oneOf('NONE', 'PENDING', 'SENT', 'FAILED'),
    to: nullableString(),
    attempts: Joi.number().integer(),
    sentAt: timestamp().allow(null),
    error: nullableString(),
  }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const Invoice = named('Invoice', obj(invoiceKeys));
export const InvoiceDetail = named('InvoiceDetail', obj({ ...invoiceKeys, events: Joi.array().items(InvoiceEvent) }));
export const InvoicePage = page('InvoicePage', Invoice);

const PreviewItem = obj({
  lineNumber: Joi.number().integer(),
  productId: hashid('product'),
  salesOrderItemId: hashid('sales-order-item').allow(null),
  code: Joi.string(),
  description: Joi.string(),
  ncm: Joi.string().example('22030000'),
  cest: nullableString(),
  cfop: Joi.string().example('5102'),
  unit: Joi.string(),
  quantity: quantity(),
  unitPrice: unitPrice(),
  grossTotal: money(),
  discount: money(),
  freight: money(),
  icms: obj({
    cst: nullableString(),
    csosn: nullableString(),
    base: money(),
    rate: percent(),
    value: money(),
    fcpValue: money(),
    stBase: money(),
    stValue: money(),
    fcpStValue: money(),
  }),
  ipiValue: money(),
  pisValue: money(),
  cofinsValue: money(),
  difal: obj({ destinationValue: money(), fcpValue: money(), originValue: money() }).allow(null),
  ibsCbs: obj({ base: money(), ibsValue: money(), cbsValue: money() }).allow(null),
  approximateTaxes: money(),
  total: money(),
  rule: Joi.string(),
});

export const InvoicePreview = named(
  'InvoicePreview',
  obj({
    model: Joi.number().integer(),
    series: Joi.number().integer(),
    emissionType: Joi.number().integer(),
    operationNature: Joi.string(),
    destination: oneOf('INTERNAL', 'INTERSTATE', 'ABROAD'),
    finalConsumer: Joi.boolean(),
    issuer: obj({ document: Joi.string(), name: Joi.string(), uf: Joi.string() }),
    recipient: obj({ document: nullableString(), name: nullableString(), email: nullableString(), uf: nullableString() }),
    items: Joi.array().items(PreviewItem),
    totals: Totals,
    installments: Joi.array().items(Installment),
    paymentType: Joi.string().example('15'),
    transport: obj({
      mode: Joi.number().integer(),
      volumes: obj({
        quantity: Joi.number().integer(),
        kind: nullableString(),
        grossWeight: quantity().allow(null),
        netWeight: quantity().allow(null),
      }).allow(null),
    }),
    additionalInfo: Joi.string(),
    warnings: Joi.array().items(Joi.string()),
  }),
);

export const InvoiceSeries = named(
  'InvoiceSeries',
  obj({
    id: hashid('invoice-series'),
    filialId: hashid('filial'),
    model: Joi.number().integer(),
    series: Joi.number().integer(),
    nextNumber: Joi.number().integer(),
    isDefault: Joi.boolean(),
    version: Joi.number().integer(),
  }),
);
export const InvoiceSeriesList = named('InvoiceSeriesList', obj({ data: Joi.array().items(InvoiceSeries) }));

export const NumberReport = named(
  'InvoiceNumberReport',
  obj({
    series: InvoiceSeries,
    from: Joi.number().integer(),
    to: Joi.number().integer(),
    numbers: Joi.array().items(
      obj({
        number: Joi.number().integer(),
        fate: oneOf(
          'AUTHORIZED',
          'CANCELLED',
          'DENIED',
          'REJECTED',
          'SIGNED',
          'SENT',
          'VOIDED',
          'VOID_PENDING',
          'CONTINGENCY',
          'SUBSTITUTED',
          'SUBSTITUTION_PENDING',
        ),
        invoiceId: hashid('invoice').allow(null),
        nfceId: hashid('nfce').allow(null),
        accessKey: nullableString(),
      }),
    ),
    unaccounted: Joi.array()
      .items(Joi.number().integer())
      .description('numbers the série gave out that nothing accounts for (always empty)'),
  }),
);

export const NumberVoid = named(
  'InvoiceNumberVoid',
  obj({
    seriesId: hashid('invoice-series'),
    filialId: hashid('filial'),
    model: Joi.number().integer(),
    series: Joi.number().integer(),
    first: Joi.number().integer(),
    last: Joi.number().integer(),
    justification: Joi.string(),
    status: oneOf('PENDING', 'VOIDED', 'REFUSED'),
    cStat: nullableString(),
    xMotivo: nullableString(),
    protocol: nullableString(),
    voidedAt: timestamp().allow(null),
  }),
);

export const SmtpSettings = named(
  'SmtpSettings',
  obj({
    host: Joi.string().example('smtp.mercado.com.br'),
    port: Joi.number().integer().example(587),
    secure: Joi.boolean(),
    user: nullableString(),
    passwordSet: Joi.boolean().description('whether a password is stored (it is never answered)'),
    from: Joi.string().example('nfe@mercado.com.br'),
    version: Joi.number().integer(),
    updatedAt: timestamp(),
  }),
);

export const CompanyLogo = named(
  'CompanyLogo',
  obj({
    contentType: Joi.string().valid('image/png', 'image/jpeg'),
    bytes: Joi.number().integer().example(18_342).description('size of the stored image'),
    updatedAt: timestamp(),
  }),
);
