import { Joi } from '../../core/http/schema';
import { date, hashid, money, named, obj, oneOf, page, percent, timestamp } from '../../core/http/response-schema';

/** Response bodies of the Pix collection routes (pix.mapper.ts). */

export const PixRefund = named(
  'PixRefund',
  obj({
    id: hashid('pix-refund'),
    paymentId: hashid('pix-payment'),
    pspRefundId: Joi.string().example('Xw3kP0s9dQmT7yVb2nLc8RfGh4JzA1eU').description('the id the PSP was given (devolucao/{id})'),
    rtrId: Joi.string().allow(null).example('D99999008202612021545a1b2c3d4e5f').description("the refund's end-to-end id at the SPI"),
    amount: money(),
    status: oneOf('REQUESTED', 'RETURNED', 'FAILED'),
    reason: Joi.string().example('Pagamento em duplicidade'),
    failureReason: Joi.string().allow(null),
    returnedAt: timestamp().allow(null),
    createdBy: Joi.string(),
    createdAt: timestamp(),
  }),
);

export const PixPayment = named(
  'PixPayment',
  obj({
    id: hashid('pix-payment'),
    filialId: hashid('filial'),
    bankAccountId: hashid('bank-account'),
    endToEndId: Joi.string().example('E9999900820261202153012345678901'),
    txid: Joi.string().allow(null).example('fc9a4366ff3d4964b5dbc6c91a8722d3'),
    chargeId: hashid('pix-charge').allow(null),
    receivableId: hashid('receivable').allow(null),
    receiptId: hashid('receivable-receipt').allow(null).description('the receipt it became (null: kept for review, or refunded)'),
    status: oneOf('APPLIED', 'REVIEW', 'REFUNDED'),
    reviewReason: oneOf(
      'RECEIVABLE_SETTLED',
      'EXCEEDS_BALANCE',
      'BOLETO_PAID',
      'UNKNOWN_TXID',
      'RECEIVABLE_CANCELLED',
      'PAYMENT_METHOD_UNAVAILABLE',
    ).allow(null),
    amount: money().description('what the payer paid'),
    originalAmount: money().description('the part that settles the receivable'),
    interest: money(),
    fine: money(),
    discount: money(),
    refundedAmount: money(),
    paidAt: timestamp(),
    payerInfo: Joi.string().allow(null),
    refunds: Joi.array().items(PixRefund),
    createdAt: timestamp(),
  }),
);

export const PixPaymentPage = page('PixPaymentPage', PixPayment);

export const PixCharge = named(
  'PixCharge',
  obj({
    id: hashid('pix-charge'),
    filialId: hashid('filial'),
    receivableId: hashid('receivable'),
    bankAccountId: hashid('bank-account'),
    kind: oneOf('STATIC', 'IMMEDIATE', 'DUE_DATE'),
    txid: Joi.string().example('fc9a4366ff3d4964b5dbc6c91a8722d3'),
    status: oneOf('PENDING', 'ACTIVE', 'COMPLETED', 'REMOVED', 'REFUSED'),
    pixKey: Joi.string().example('financeiro@mercearia.com.br'),
    amount: money(),
    dueDate: date().allow(null),
    validity: Joi.number().integer().example(30).description('IMMEDIATE: seconds payable; DUE_DATE: days accepted after the due date'),
    finePercent: percent(),
    interestPerDayPercent: percent(),
    discountAmount: money(),
    discountDate: date().allow(null),
    location: Joi.string().allow(null).example('pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25'),
    brCode: Joi.string()
      .allow(null)
      .example(
        '00020101021226850014br.gov.bcb.pix2563pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5919Mercearia Boa Vista6009Sao Paulo62070503***63041D3D',
      )
      .description('the BR Code (Pix copia e cola) for the QR'),
    refusalReason: Joi.string().allow(null),
    payments: Joi.array().items(PixPayment),
    createdBy: Joi.string(),
    createdAt: timestamp(),
    version: Joi.number().integer(),
  }),
);

export const PixChargeList = named('PixChargeList', obj({ data: Joi.array().items(PixCharge) }));

const summary = obj({
  applied: Joi.number().integer().description('Pix that became receipts'),
  duplicates: Joi.number().integer().description('Pix already applied before'),
  review: Joi.number().integer().description('Pix kept for review (no receipt)'),
  refundsSettled: Joi.number().integer(),
});

export const PixSync = named('PixSync', obj({ charge: PixCharge, summary }));
export const PixWebhookAck = named('PixWebhookAck', obj({ summary }));
export const PixRefundResult = named('PixRefundResult', obj({ refund: PixRefund, payment: PixPayment }));

export const PixPspConnection = named(
  'PixPspConnection',
  obj({
    bankAccountId: hashid('bank-account'),
    pixKey: Joi.string().allow(null),
    baseUrl: Joi.string().example('https://pix.example.com/api/v2'),
    tokenUrl: Joi.string().allow(null),
    clientId: Joi.string(),
    clientSecretSet: Joi.boolean(),
    paymentMethod: Joi.string().example('PIX'),
    webhookUrl: Joi.string().allow(null).example('https://erp.example.com/api/webhooks/pix/Xk4RbPq9'),
    webhookRegisteredAt: timestamp().allow(null),
    version: Joi.number().integer(),
    updatedAt: timestamp(),
  }),
);
