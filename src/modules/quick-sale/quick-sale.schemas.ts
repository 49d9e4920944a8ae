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
const cnpj = () =>
  Joi.string()
    .pattern(/^\d{14}$/)
    .description('CNPJ, 14 digits')
    .example('01027058000191');
/** The payment's identification (NFC-e detPag/card, the acquirer's receivable): as the TEF or the POS gave it. */
const card = Joi.object({
  integration: Joi.string()
    .valid('TEF', 'POS')
    .required()
    .description('tpIntegra: TEF 1 (integrated with the counter), POS 2 (a stand-alone machine)'),
  acquirerCnpj: cnpj().allow(null).default(null).description("the card institution's CNPJ"),
  brand: Joi.string()
    .pattern(/^\d{2}$/)
    .allow(null)
    .default(null)
    .description(
      'tBand: 01 Visa, 02 Mastercard, 03 American Express, 05 Sorocred, 06 Diners, 07 Elo, 08 Hipercard, 09 Aura, 10 Cabal, 99 other',
    ),
  authorizationCode: Joi.string().trim().min(1).max(128).allow(null).default(null).description('cAut'),
  nsu: Joi.string()
    .pattern(/^[A-Za-z0-9]{1,40}$/)
    .allow(null)
    .default(null)
    .description("the acquirer's NSU (a statement reconciles by it)"),
});
const pix = Joi.object({
  endToEndId: Joi.string()
    .pattern(/^[A-Za-z0-9]{32}$/)
    .required()
    .description('the Pix endToEndId (E + ISPB + date + sequence, 32 characters): the NFC-e cAut'),
  static: Joi.boolean().default(false).description('paid on the static QR code (the key, tPag 20); default dynamic (tPag 17)'),
  pspCnpj: cnpj().allow(null).default(null).description("the receiving PSP's CNPJ"),
});

export const quickSalePayments = Joi.array()
  .items(
    Joi.object({
      method: methodCode.required(),
      amount: decimal('amount', { positive: true }).required(),
      card: card.description('card payments: the TEF/POS identification'),
      pix: pix.description('Pix payments: the endToEndId'),
      takenAt: Joi.object({
        cnpj: cnpj().required(),
        uf: Joi.string()
          .pattern(/^[A-Z]{2}$/)
          .required(),
      }).description('CNPJPag/UFPag: the establishment where the payment was taken, when not this filial'),
    }).oxor('card', 'pix'),
  )
  .min(1)
  .max(10)
  .description('quick sale only: payments; their sum must cover the total (cash over-payment gives change)');

type ByFilial = { params: { filialId: number } };

/** The POST /sales-order body: a standard order or quote, or (flowMode QUICK_SALE, with payments) a quick sale. */
export type CreateBody = CreateFields & { payments?: PaymentInput[]; consumerDocument?: string | null; terminalId?: string };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const quickSaleSchemas = {
  /** POST /sales-order: sales-order's create fields and, with flowMode QUICK_SALE, the payments. */
  createSalesOrder: typedSchema<{ body: CreateBody }>({
    body: Joi.object({
      ...createFields,
      payments: quickSalePayments.when('flowMode', { is: 'QUICK_SALE', otherwise: Joi.forbidden() }),
      terminalId: Joi.string()
        .trim()
        .pattern(/^[A-Za-z0-9_.-]{1,20}$/)
        .description('quick sale only: the terminal (caixa) selling; the sale, its NFC-e and payments belong to its open cash session')
        .when('flowMode', { is: 'QUICK_SALE', otherwise: Joi.forbidden() }),
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
      requireCashSession: Joi.boolean()
        .default(false)
        .description('sell only in an open cash session of the terminal the sale names (terminalId)'),
      cashDifferenceLimit: decimal('amount', { min: 0 })
        .default(0)
        .description("a cash session close's difference (per payment method, either way) above this needs a supervisor's approval"),
      version: Joi.number().integer().min(0).description('current version; omit or 0 on the first save'),
    }),
  }),
};
