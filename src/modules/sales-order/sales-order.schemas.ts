import { decimal, id, isoDate, Joi, pagination, version } from '../../core/http/schema';
import { isMalformedId } from '../../core/hashids';
import { typedSchema } from '../../core/http/typed-input';
import type { CreateRequest } from './services/create.service';
import type { PatchInput } from './services/edit.service';
import type { FulfillLine } from './services/fulfill.service';
import { type ListQuery, SORTS } from './services/query.service';

export const STATUSES = ['OPEN', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED', 'CLOSED', 'GROUPED'] as const;
export const TYPES = ['ORDER', 'QUOTE'] as const;
export const FLOW_MODES = ['STANDARD', 'QUICK_SALE'] as const;

/** Two ids that did not decode (0) are unknown ids, not duplicates of each other. */
const sameId = (key: string) => (a: Record<string, number>, b: Record<string, number>) => a[key] !== 0 && a[key] === b[key];

const orderId = () => id('sales-order').required();

/** A hashid of some type yet to be decided (GET /sales-order/:x is a filial or an order). */
const anyId = () =>
  Joi.string()
    .custom((value: string, helpers) => (isMalformedId(value) ? helpers.error('id.malformed') : value), 'hashid')
    .messages({ 'id.malformed': '{{#label}} is not a valid id' })
    // The document's example is a filial of the demo (a list): Try-it-out lists its orders.
    .meta({ hashid: 'filial' })
    .description('filial id (lists) or sales order id (reads one)');

/** A line as a client sends it (create, quick sale, edit). */
export const itemInput = {
  productId: id('product').required(),
  quantity: decimal('quantity', { positive: true }).required(),
  unitPrice: decimal('price', { min: 0 }).description("defaults to the product's price"),
  discount: decimal('amount', { min: 0 }).description('line discount (amount)'),
  description: Joi.string().trim().min(1).max(200).description("defaults to the product's name"),
};

/** Installment days from the billing date, non-decreasing (e.g. [30, 60, 90]); null: one installment due on billing. */
const paymentTermsInput = Joi.object({
  installmentDays: Joi.array()
    .items(Joi.number().integer().min(0).max(720))
    .min(1)
    .max(24)
    .required()
    .custom(
      (days: number[], helpers) =>
        days.every((d, i) => i === 0 || d >= days[i - 1]) ? days : helpers.message({ custom: '{{#label}} must be non-decreasing days' }),
      'non-decreasing',
    )
    .description('days from the billing date to each installment, e.g. [30, 60, 90]'),
})
  .allow(null)
  .description(
    'payment terms: each fulfilment is billed in these installments (receivables), the remainder cent on the last; null: one installment due on the billing date',
  );

const headerFields = {
  customerId: id('customer').allow(null),
  sellerId: id('seller').allow(null),
  alias: Joi.string().trim().max(60).allow(null, ''),
  notes: Joi.string().trim().max(1000).allow(null, ''),
  paymentTerms: paymentTermsInput,
  boletoBankAccountId: id('bank-account')
    .allow(null)
    .description(
      "boleto on billing: each customer installment a fulfilment bills (a prazo) gets a registered boleto on this collection account of the order's filial, in the billing transaction; null: none",
    ),
  discount: decimal('amount', { min: 0 }).description('order discount (amount), allocated over the lines'),
  freight: decimal('amount', { min: 0 }),
  insurance: decimal('amount', { min: 0 }).description('vSeg: insurance charged with the goods, apportioned to the lines like the freight'),
  otherExpenses: decimal('amount', { min: 0 }).description(
    'vOutro: other accessory expenses charged to the buyer, apportioned to the lines like the freight',
  ),
  finalConsumer: Joi.boolean()
    .allow(null)
    .description("indFinal of the order's NF-e: true a final consumer (IPI in the ICMS base), false resale; null: the customer's"),
};

/**
 * The create body's fields. `flowMode` is part of the contract: POST /sales-order is quick-sale's
 * (quick-sale.schemas.ts `createSalesOrder`), which adds `payments` and routes QUICK_SALE bodies to the
 * counter sale, the others to createFromRequest.
 */
export const createFields = {
  type: Joi.string()
    .valid(...TYPES)
    .default('ORDER'),
  flowMode: Joi.string()
    .valid(...FLOW_MODES)
    .default('STANDARD'),
  ...headerFields,
  validUntil: isoDate()
    .allow(null)
    .when('type', { is: 'QUOTE', otherwise: Joi.forbidden() })
    .description('quotes only: last day the quote can be converted (default: 30 days from today)'),
  items: Joi.array().items(Joi.object(itemInput)).min(1).max(500).required(),
};

const listQuery = Joi.object({
  ...pagination,
  search: Joi.string()
    .trim()
    .max(100)
    .allow('')
    .description('numeric: code equal or prefix; text: customer name/trade name/document, seller name/alias, order alias'),
  status: Joi.string().valid(...STATUSES),
  type: Joi.string().valid(...TYPES),
  customerId: id('customer'),
  sellerId: id('seller'),
  createdFrom: isoDate(),
  createdTo: isoDate(),
  sort: Joi.string()
    .valid(...SORTS)
    .default('-code'),
});

const byId = Joi.object({ id: orderId() });
const bySalesOrderId = Joi.object({ salesOrderId: orderId() });

type ById = { params: { id: number } };
type BySalesOrderId = { params: { salesOrderId: number } };

/** The create body without quick sale's `payments`: a standard order or quote. */
export type CreateFields = Omit<CreateRequest, 'code'>;

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const salesOrderSchemas = {
  list: typedSchema<{ params: { filialId: number }; query: ListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: listQuery,
  }),
  listOrGet: typedSchema<{ params: { filialIdOrId: string }; query: ListQuery }>({
    params: Joi.object({ filialIdOrId: anyId().required() }),
    query: listQuery,
  }),
  get: typedSchema<ById>({ params: byId }),
  update: typedSchema<ById & { body: PatchInput }>({
    params: byId,
    body: Joi.object({
      version: version(),
      ...headerFields,
      validUntil: isoDate().allow(null).description('quotes only'),
      items: Joi.array()
        .items(Joi.object({ salesOrderItemId: id('sales-order-item').description('keep this line (omit for a new one)'), ...itemInput }))
        .min(1)
        .max(500)
        .unique(sameId('salesOrderItemId'), { ignoreUndefined: true })
        .description('the full new list of lines: lines left out are removed'),
    }).min(2),
  }),
  remove: typedSchema<ById>({ params: byId }),
  assignCustomer: typedSchema<ById & { body: { customerId: number } }>({
    params: byId,
    body: Joi.object({ customerId: id('customer').required() }),
  }),
  group: typedSchema<{ body: { salesOrderIds: number[] } }>({
    body: Joi.object({
      salesOrderIds: Joi.array()
        .items(id('sales-order'))
        .min(2)
        .max(50)
        .unique((a: number, b: number) => a !== 0 && a === b)
        .required(),
    }),
  }),
  fulfillment: typedSchema<ById>({ params: byId }),
  fulfill: typedSchema<ById & { body: { items: FulfillLine[] } }>({
    params: byId,
    body: Joi.object({
      items: Joi.array()
        .items(
          Joi.object({ salesOrderItemId: id('sales-order-item').required(), quantity: decimal('quantity', { positive: true }).required() }),
        )
        .min(1)
        .max(500)
        .unique(sameId('salesOrderItemId'))
        .required(),
    }),
  }),
  convertQuote: typedSchema<BySalesOrderId>({ params: bySalesOrderId }),
  convertToQuote: typedSchema<BySalesOrderId & { body: { validUntil?: string } | undefined }>({
    params: bySalesOrderId,
    body: Joi.object({ validUntil: isoDate().description('default: 30 days from today') }),
  }),
  cancelPreview: typedSchema<BySalesOrderId>({ params: bySalesOrderId }),
  cancel: typedSchema<BySalesOrderId & { body: { reason: string } }>({
    params: bySalesOrderId,
    body: Joi.object({ reason: Joi.string().trim().min(3).max(500).required() }),
  }),
};
