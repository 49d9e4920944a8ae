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
