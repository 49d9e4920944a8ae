import { decimal, id, isoDate, Joi, pagination, version } from '../../core/http/schema';
import { decodeId, isMalformedId } from '../../core/hashids';
import { columnMax, Dec, DECIMAL_COLUMN } from '../../core/decimal';
import type { FlowMode } from './entities/sales-order.entity';
import type { ItemInput } from './services/lines';
import { typedSchema } from '../../core/http/typed-input';
import type { CreateRequest } from './services/create.service';
import type { PatchInput } from './services/edit.service';
import type { FulfillLine } from './services/fulfill.service';
import { type ListQuery, SORTS } from './services/query.service';
import { quickSalePayments } from '../quick-sale/quick-sale.schemas';
import type { PaymentInput } from '../quick-sale/quick-sale.payments';

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
    .description('filial id (lists) or sales order id (reads one)');

/** A line as a client sends it (create, quick sale, edit). */
export const itemInput = {
  productId: id('product').required(),
  quantity: decimal('quantity', { positive: true }).required(),
  unitPrice: decimal('price', { min: 0 }).description("defaults to the product's price"),
  discount: decimal('amount', { min: 0 }).description('line discount (amount)'),
  description: Joi.string().trim().min(1).max(200).description("defaults to the product's name"),
};

const headerFields = {
  customerId: id('customer').allow(null),
  sellerId: id('seller').allow(null),
  alias: Joi.string().trim().max(60).allow(null, ''),
  notes: Joi.string().trim().max(1000).allow(null, ''),
  discount: decimal('amount', { min: 0 }).description('order discount (amount), allocated over the lines'),
  freight: decimal('amount', { min: 0 }),
};

/**
 * The create body. `flowMode` is part of the contract: QUICK_SALE bodies (with `payments`) are routed
 * by the create use case; the quick-sale module extends this object with its own fields.
 */
export const createFields = {
  type: Joi.string().valid(...TYPES).default('ORDER'),
  flowMode: Joi.string().valid(...FLOW_MODES).default('STANDARD'),
  ...headerFields,
  validUntil: isoDate()
    .allow(null)
    .when('type', { is: 'QUOTE', otherwise: Joi.forbidden() })
    .description('quotes only: last day the quote can be converted (default: 30 days from today)'),
  items: Joi.array().items(Joi.object(itemInput)).min(1).max(500).required(),
  payments: quickSalePayments.when('flowMode', { is: 'QUICK_SALE', otherwise: Joi.forbidden() }),
};

const listQuery = Joi.object({
  ...pagination,
  search: Joi.string().trim().max(100).allow('').description('numeric: code equal or prefix; text: customer name/trade name/document, seller name/alias, order alias'),
  status: Joi.string().valid(...STATUSES),
  type: Joi.string().valid(...TYPES),
  customerId: id('customer'),
  sellerId: id('seller'),
  createdFrom: isoDate(),
  createdTo: isoDate(),
  sort: Joi.string().valid(...SORTS).default('-code'),
});

const byId = Joi.object({ id: orderId() });
const bySalesOrderId = Joi.object({ salesOrderId: orderId() });

type ById = { params: { id: number } };
type BySalesOrderId = { params: { salesOrderId: number } };

/** The create body: a standard order or quote, or (flowMode QUICK_SALE, with payments) a quick sale. */
export type CreateBody = Omit<CreateRequest, 'code' | 'resolved' | 'fulfilledOnInsert'> & { payments?: PaymentInput[] };

/*
 * The create body of a counter sale as POS clients send it — flowMode, items of product and quantity,
 * payments of method and amount, nothing else — read by hand (RouteSchema.fastBody): what joi would
 * answer for it (the default type ORDER added, ids decoded, decimals as Dec), or undefined for any
 * other body or any value joi might refuse, which joi then validates as always. The suite checks
 * every answer against joi's.
 */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const METHOD_CODE = /^[A-Z0-9_]{1,30}$/;
const QUANTITY_MAX = columnMax(DECIMAL_COLUMN.quantity.precision, DECIMAL_COLUMN.quantity.scale);
const AMOUNT_MAX = columnMax(DECIMAL_COLUMN.amount.precision, DECIMAL_COLUMN.amount.scale);

/** decimal(scale, { positive: true }) of a value joi would take as it is; undefined otherwise. */
function positiveDecimal(value: unknown, places: number, max: Dec): Dec | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = value.toString();
  } else if (typeof value === 'string') {
    text = value.trim();
    if (text.length > 60 || !DECIMAL_TEXT.test(text)) return undefined;
  } else return undefined;
  const d = new Dec(text);
  return d.decimalPlaces() <= places && d.gt(0) && d.lte(max) ? d : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** An object with exactly these two keys. */
const hasExactly = (o: Record<string, unknown>, a: string, b: string): boolean => {
  const keys = Object.keys(o);
  return keys.length === 2 && a in o && b in o;
};

export function fastCreateBody(input: unknown): CreateBody | undefined {
  if (!isPlainObject(input)) return undefined;
  const keys = Object.keys(input);
  const { flowMode, items, payments } = input;
  if (keys.length !== (payments === undefined ? 2 : 3) || !('flowMode' in input) || !('items' in input)) return undefined;
  if (flowMode !== 'QUICK_SALE' && !(flowMode === 'STANDARD' && payments === undefined)) return undefined;
  if (!Array.isArray(items) || items.length < 1 || items.length > 500) return undefined;
  const lines: ItemInput[] = [];
  for (const item of items) {
    if (!isPlainObject(item) || !hasExactly(item, 'productId', 'quantity')) return undefined;
    const { productId } = item;
    if (typeof productId !== 'string' || isMalformedId(productId)) return undefined;
    const quantity = positiveDecimal(item.quantity, DECIMAL_COLUMN.quantity.scale, QUANTITY_MAX);
    if (!quantity) return undefined;
    lines.push({ productId: decodeId('product', productId), quantity });
  }
  const body: CreateBody = { flowMode: flowMode as FlowMode, items: lines, type: 'ORDER' };
  if (payments === undefined) return body;
  if (!Array.isArray(payments) || payments.length < 1 || payments.length > 10) return undefined;
  const paid: PaymentInput[] = [];
  for (const payment of payments) {
    if (!isPlainObject(payment) || !hasExactly(payment, 'method', 'amount') || typeof payment.method !== 'string') return undefined;
    const method = payment.method.toLocaleUpperCase().trim();
    if (!METHOD_CODE.test(method)) return undefined;
    const amount = positiveDecimal(payment.amount, DECIMAL_COLUMN.amount.scale, AMOUNT_MAX);
    if (!amount) return undefined;
    paid.push({ method, amount });
  }
  body.payments = paid;
  return body;
}

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const salesOrderSchemas = {
  create: typedSchema<{ body: CreateBody }>({ body: Joi.object(createFields), fastBody: fastCreateBody }),
  list: typedSchema<{ params: { filialId: number }; query: ListQuery }>({ params: Joi.object({ filialId: id('filial').required() }), query: listQuery }),
  listOrGet: typedSchema<{ params: { filialIdOrId: string }; query: ListQuery }>({ params: Joi.object({ filialIdOrId: anyId().required() }), query: listQuery }),
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
  assignCustomer: typedSchema<ById & { body: { customerId: number } }>({ params: byId, body: Joi.object({ customerId: id('customer').required() }) }),
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
        .items(Joi.object({ salesOrderItemId: id('sales-order-item').required(), quantity: decimal('quantity', { positive: true }).required() }))
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
  cancel: typedSchema<BySalesOrderId & { body: { reason: string } }>({ params: bySalesOrderId, body: Joi.object({ reason: Joi.string().trim().min(3).max(500).required() }) }),
};
