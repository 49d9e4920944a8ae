import { columnMax, Dec, DECIMAL_COLUMN } from '../../core/decimal';
import { decodeId, isMalformedId } from '../../core/hashids';
import { decimal, document, id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { createFields, type CreateFields } from '../sales-order';
import type { ConfigurationInput } from './quick-sale-configuration.service';
import type { PaymentInput } from './quick-sale.payments';

const filialParams = Joi.object({ filialId: id('filial').required() });
const methodCode = Joi.string()
  .trim()
  .uppercase()
  .pattern(/^[A-Z0-9_]{1,30}$/);

/** `payments` of a quick-sale create (POST /sales-order with flowMode QUICK_SALE). */
export const quickSalePayments = Joi.array()
  .items(Joi.object({ method: methodCode.required(), amount: decimal('amount', { positive: true }).required() }))
  .min(1)
  .max(10)
  .description('quick sale only: payments; their sum must cover the total (cash over-payment gives change)');

type ByFilial = { params: { filialId: number } };

/** The POST /sales-order body: a standard order or quote, or (flowMode QUICK_SALE, with payments) a quick sale. */
export type CreateBody = CreateFields & { payments?: PaymentInput[]; consumerDocument?: string | null };

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
  const lines: CreateBody['items'] = [];
  for (const item of items) {
    if (!isPlainObject(item) || !hasExactly(item, 'productId', 'quantity')) return undefined;
    const { productId } = item;
    if (typeof productId !== 'string' || isMalformedId(productId)) return undefined;
    const quantity = positiveDecimal(item.quantity, DECIMAL_COLUMN.quantity.scale, QUANTITY_MAX);
    if (!quantity) return undefined;
    lines.push({ productId: decodeId('product', productId), quantity });
  }
  const body: CreateBody = { flowMode, items: lines, type: 'ORDER' };
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
export const quickSaleSchemas = {
  /** POST /sales-order: sales-order's create fields and, with flowMode QUICK_SALE, the payments. */
  createSalesOrder: typedSchema<{ body: CreateBody }>({
    body: Joi.object({
      ...createFields,
      payments: quickSalePayments.when('flowMode', { is: 'QUICK_SALE', otherwise: Joi.forbidden() }),
      consumerDocument: document()
        .allow(null)
        .description("quick sale only: the consumer's CPF or CNPJ on the NFC-e (required above the UF's threshold)")
        .when('flowMode', { is: 'QUICK_SALE', otherwise: Joi.forbidden() }),
    }),
    fastBody: fastCreateBody,
  }),
  getConfiguration: typedSchema<ByFilial>({ params: filialParams }),
  validateConfiguration: typedSchema<ByFilial>({ params: filialParams }),
  putConfiguration: typedSchema<ByFilial & { body: ConfigurationInput }>({
    params: filialParams,
    body: Joi.object({
      enabled: Joi.boolean().required(),
      defaultCustomerId: id('customer').allow(null).default(null),
      defaultSellerId: id('seller').allow(null).default(null),
      paymentMethods: Joi.array().items(methodCode).unique().max(20).default([]),
      defaultPaymentMethod: methodCode.allow(null).default(null),
      allowNegativeStock: Joi.boolean().default(false),
      requireCustomer: Joi.boolean().default(false),
      maxDiscountPercent: decimal('percent', { min: 0, max: 100 }).default(0),
      version: Joi.number().integer().min(0).description('current version; omit or 0 on the first save'),
    }),
  }),
};
