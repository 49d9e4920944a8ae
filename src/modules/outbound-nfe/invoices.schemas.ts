import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { Dec } from '../../core/decimal';
import type { OutboundNfeStatus } from './entities/outbound-nfe.entity';
import { INVOICE_STATUSES } from './invoices.state';

/** Filters of the invoice list (query.service.ts listInvoices). */
export interface InvoiceListFilters {
  status?: OutboundNfeStatus;
  issuedFrom?: string;
  issuedTo?: string;
  series?: number;
  number?: number;
  accessKey?: string;
  customerId?: number;
  salesOrderId?: number;
}

/*
 * Request schemas of /invoices. What is billed is a fulfilment or an order (exactly one); installments
 * (cobr/dup) must add up to the document's total (checked once the engine computed it, 422).
 */

const installments = Joi.array()
  .items(Joi.object({ dueDate: isoDate().required(), amount: decimal('amount', { positive: true }).required() }))
  .max(120)
  .description('duplicatas (cobr/dup); they must add up to vNF');
const transport = Joi.object({
  mode: Joi.number()
    .strict()
    .valid(0, 1, 2, 3, 4, 9)
    .required()
    .description('modFrete: 0 issuer (CIF), 1 recipient (FOB), 2 third party, 3/4 own, 9 none'),
  volumes: Joi.object({
    quantity: Joi.number().integer().min(1).max(999_999).required(),
    kind: Joi.string().trim().max(60).allow(null),
    grossWeight: decimal('quantity', { min: 0 }).allow(null),
    netWeight: decimal('quantity', { min: 0 }).allow(null),
  }).allow(null),
});
const documentFields = {
  installments,
  paymentType: Joi.string()
    .pattern(/^(01|02|03|04|05|10|11|12|13|15|16|17|18|19)$/)
    .description('tPag (01 cash, 03 credit card, 15 boleto, 17 Pix…); default 15 with installments, else 01'),
  transport,
  notes: Joi.string().trim().max(2000).allow(null, '').description('text for infCpl, before the Lei 12.741 line'),
  finalConsumer: Joi.boolean().description(
    "indFinal of this NF-e over the order's and the customer's (a contributor buying for its own use: true, IPI in the ICMS base)",
  ),
};
const target = { fulfillmentId: id('fulfillment'), salesOrderId: id('sales-order') };
const invoiceParam = Joi.object({ id: id('invoice').required() });
const filialParam = Joi.object({ filialId: id('filial').required() });

export interface DocumentFields {
  installments?: { dueDate: string; amount: Dec }[];
  paymentType?: string;
  transport?: {
    mode: 0 | 1 | 2 | 3 | 4 | 9;
    volumes?: { quantity: number; kind?: string | null; grossWeight?: Dec | null; netWeight?: Dec | null } | null;
  };
  notes?: string | null;
  finalConsumer?: boolean;
}
type Target = { fulfillmentId?: number; salesOrderId?: number };
type ById = { params: { id: number } };

export const invoiceSchemas = {
  issue: typedSchema<{ body: Target & DocumentFields }>({
    body: Joi.object({ ...target, ...documentFields }).xor('fulfillmentId', 'salesOrderId'),
  }),
  byId: typedSchema<ById>({ params: invoiceParam }),
  resend: typedSchema<ById & { body: DocumentFields }>({ params: invoiceParam, body: Joi.object(documentFields) }),
  cancel: typedSchema<ById & { body: { justification: string } }>({
    params: invoiceParam,
    body: Joi.object({ justification: Joi.string().trim().min(15).max(255).required() }),
  }),
  correct: typedSchema<ById & { body: { correction: string } }>({
    params: invoiceParam,
    body: Joi.object({ correction: Joi.string().trim().min(15).max(1000).required() }),
  }),
  voidOne: typedSchema<ById & { body: { justification: string } }>({
    params: invoiceParam,
    body: Joi.object({
      justification: Joi.string().trim().min(15).max(255).required().example('Nota rejeitada pela SEFAZ: numero nao utilizado'),
    }),
  }),
  email: typedSchema<ById & { body: { to?: string } }>({
    params: invoiceParam,
    body: Joi.object({ to: Joi.string().trim().email().max(150) }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: PageRequest & InvoiceListFilters }>({
    params: filialParam,
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid(...INVOICE_STATUSES),
      issuedFrom: isoDate().description('issue date (dhEmi, São Paulo calendar day) from, inclusive'),
      issuedTo: isoDate().description('issue date to, inclusive'),
      series: Joi.number()
        .integer()
        .min(0)
        .max(999)
        .example(1)
        .description('série of model 55 (NFC-e, model 65: GET /nfce/list/:filialId)'),
      number: Joi.number().integer().min(1).max(999_999_999).example(1).description('nNF'),
      accessKey: Joi.string().pattern(ACCESS_KEY_PATTERN).description('the 44-digit access key'),
      customerId: id('customer').description('the recipient customer'),
      salesOrderId: id('sales-order').description('the sale billed (or returned)'),
    }),
  }),
  seriesList: typedSchema<{ params: { filialId: number } }>({ params: filialParam }),
  seriesSave: typedSchema<{
    params: { filialId: number };
    body: { model: 55 | 65; series: number; nextNumber: number; isDefault: boolean };
  }>({
    params: filialParam,
    body: Joi.object({
      model: Joi.number().strict().valid(55, 65).required(),
      series: Joi.number().integer().min(0).max(889).required().description("série 0–889 (890–899 are the authority's avulsa, 900+ SCAN)"),
      nextNumber: Joi.number().integer().min(1).max(999_999_999).required(),
      isDefault: Joi.boolean().default(true),
    }),
  }),
  numbers: typedSchema<{ params: { seriesId: number }; query: { from?: number; to?: number } }>({
    params: Joi.object({ seriesId: id('invoice-series').required() }),
    query: Joi.object({ from: Joi.number().integer().min(1), to: Joi.number().integer().min(1) }),
  }),
  logo: typedSchema<{ body: { contentType: 'image/png' | 'image/jpeg'; image: string } }>({
    body: Joi.object({
      contentType: Joi.string().valid('image/png', 'image/jpeg').required(),
      image: Joi.string()
        .base64()
        .max(400_000)
        .required()
        .description('the image file in base64 (PNG or JPEG, up to 200 KB, 2000 px a side)'),
    }),
    example: {
      contentType: 'image/png',
      image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
    },
  }),
  smtpSettings: typedSchema<{
    body: { host: string; port: number; secure: boolean; user?: string | null; password?: string | null; from: string };
  }>({
    body: Joi.object({
      host: Joi.string().trim().hostname().max(255).required().description('the SMTP server'),
      port: Joi.number().integer().min(1).max(65535).required(),
      secure: Joi.boolean()
        .default(false)
        .description('TLS from the first byte (SMTPS, usually 465); false: STARTTLS when the server offers it (587/25)'),
      user: Joi.string().trim().max(255).allow(null).description('login; none: the server takes mail without authentication'),
      password: Joi.string()
        .max(255)
        .allow(null)
        .description('stored sealed and never answered; omit it to keep the stored one, null to remove it'),
      from: Joi.string().trim().email().max(255).required().description('sender address of the NF-e emails'),
    }),
    example: {
      host: 'smtp.mercado.com.br',
      port: 587,
      secure: false,
      user: 'nfe@mercado.com.br',
      password: 's3nha-do-smtp',
      from: 'nfe@mercado.com.br',
    },
  }),
  voidNumbers: typedSchema<{
    body: { filialId: number; model?: number; series: number; first: number; last: number; justification: string };
  }>({
    body: Joi.object({
      filialId: id('filial').required(),
      model: Joi.number().strict().valid(55, 65).default(55),
      series: Joi.number().integer().min(0).max(999).required(),
      first: Joi.number().integer().min(1).max(999_999_999).required(),
      last: Joi.number().integer().min(1).max(999_999_999).required(),
      justification: Joi.string().trim().min(15).max(255).required().example('Numeracao pulada por falha do sistema emissor'),
    }),
  }),
};
