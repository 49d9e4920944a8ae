import { exampleIdsOf } from '../../core/openapi/example-ids';
import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { ChargeInput, PspConnectionInput } from './pix-charges.service';
import type { WebhookNotice } from './pix-receive.service';
import type { PaymentListQuery, RefundInput } from './pix-refunds.service';

/* Request schemas of Pix collection, each with the type of what it validates (core/http/typed-input.ts). */

const https = Joi.string()
  .trim()
  .max(255)
  .uri({ scheme: ['https', 'http'] });

export const pixSchemas = {
  putConnection: typedSchema<{ params: { bankAccountId: number }; body: PspConnectionInput }>({
    params: Joi.object({ bankAccountId: id('bank-account').required() }),
    body: Joi.object({
      baseUrl: https.required().description("the PSP's API Pix base URL, e.g. https://pix.example.com/api/v2"),
      tokenUrl: https.allow(null).description("the OAuth2 token endpoint (default: the base URL's origin + /oauth/token)"),
      clientId: Joi.string().trim().min(1).max(255).required(),
      clientSecret: Joi.string().min(1).max(500).description('required the first time; omitted keeps the stored one (never answered back)'),
      webhookSecret: Joi.string()
        .min(16)
        .max(200)
        .description(
          "the shared secret every callback carries in x-pix-webhook-secret (added by the proxy that checks the PSP's mTLS certificate); required the first time",
        ),
      webhookBaseUrl: https
        .allow(null)
        .description(
          'the public base URL of this API as the PSP reaches it (…/api): the webhook registered for the key is <it>/webhooks/pix/<bankAccountId>',
        ),
      paymentMethod: Joi.string().trim().min(1).max(30).description("the tenant's payment-method code of the receipts (default PIX)"),
    }),
    example: {
      baseUrl: 'https://pix.example.com/api/v2',
      clientId: 'erp-mercearia',
      clientSecret: 's3cr3t-do-psp',
      webhookSecret: 'um-segredo-longo-do-webhook',
      webhookBaseUrl: 'https://erp.example.com/api',
      paymentMethod: 'PIX',
    },
  }),
  connection: typedSchema<{ params: { bankAccountId: number } }>({ params: Joi.object({ bankAccountId: id('bank-account').required() }) }),
  createCharge: typedSchema<{ params: { id: number }; body: ChargeInput }>({
    params: Joi.object({ id: id('receivable').required() }),
    body: Joi.object({
      kind: Joi.string()
        .valid('STATIC', 'IMMEDIATE', 'DUE_DATE')
        .required()
        .description('STATIC: a BR Code with key, amount and txid (no PSP) · IMMEDIATE: a cob · DUE_DATE: a cobv'),
      bankAccountId: id('bank-account').required(),
      amount: decimal('amount', { positive: true }).allow(null).description('default: what is open on the receivable'),
      expiresInSeconds: Joi.number()
        .integer()
        .min(60)
        .max(2_592_000)
        .allow(null)
        .description('IMMEDIATE: seconds it stays payable (default 86400)'),
      dueDate: isoDate().allow(null).description("DUE_DATE: default the receivable's due date"),
      daysAfterDue: Joi.number()
        .integer()
        .min(0)
        .max(365)
        .allow(null)
        .description('DUE_DATE: days after the due date it is still accepted (default 30)'),
      finePercent: decimal('percent', { min: 0, max: 100 }).allow(null).description("DUE_DATE: multa, default the account's"),
      interestPerDayPercent: decimal('percent', { min: 0, max: 100 })
        .allow(null)
        .description("DUE_DATE: juros per calendar day, default the account's"),
      discountAmount: decimal('amount', { min: 0 })
        .allow(null)
        .description("DUE_DATE: desconto if paid up to discountDate, default the account's percent"),
      discountDate: isoDate().allow(null),
      description: Joi.string().trim().max(140).allow(null, '').description('shown to the payer'),
    }),
    // Read when the document is built: the account id is the demo's where it is seeded (core/openapi/example-ids.ts).
    get example() {
      return {
        kind: 'DUE_DATE',
        bankAccountId: exampleIdsOf('bank-account')[0],
        finePercent: 2,
        interestPerDayPercent: 0.033,
        description: 'Pedido 1042, parcela 1/3',
      };
    },
  }),
  receivableCharges: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('receivable').required() }) }),
  charge: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('pix-charge').required() }) }),
  payments: typedSchema<{ params: { filialId: number }; query: PaymentListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid('APPLIED', 'REVIEW', 'REFUNDED').description('REVIEW: the Pix kept for a person, no receipt'),
      reviewReason: Joi.string().valid(
        'RECEIVABLE_SETTLED',
        'EXCEEDS_BALANCE',
        'BOLETO_PAID',
        'UNKNOWN_TXID',
        'RECEIVABLE_CANCELLED',
        'PAYMENT_METHOD_UNAVAILABLE',
      ),
    }),
  }),
  payment: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('pix-payment').required() }) }),
  refund: typedSchema<{ params: { id: number }; body: RefundInput }>({
    params: Joi.object({ id: id('pix-payment').required() }),
    body: Joi.object({
      amount: decimal('amount', { positive: true }).allow(null).description('default: all of the Pix not yet refunded'),
      reason: Joi.string().trim().min(3).max(140).required(),
    }),
  }),
  webhook: typedSchema<{ params: { accountId: number }; body: { pix: WebhookNotice[] } }>({
    params: Joi.object({ accountId: id('bank-account').required() }),
    // The PSP's body (API Pix webhook): each item names a Pix; the service reads it again, so only its keys are read here and the rest is ignored.
    body: Joi.object({
      pix: Joi.array()
        .items(
          Joi.object({
            endToEndId: Joi.string().trim().min(1).max(32).required(),
            txid: Joi.string().trim().max(35).allow(null, ''),
          }).unknown(true),
        )
        .min(1)
        .max(1000)
        .required(),
    }).unknown(true),
    example: {
      pix: [
        {
          endToEndId: 'E9999900820261202153012345678901',
          txid: 'fc9a4366ff3d4964b5dbc6c91a8722d3',
          valor: '110.00',
          chave: 'loja@example.com',
          horario: '2026-12-02T15:30:12.000Z',
        },
      ],
    },
  }),
};
