import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, percent, timestamp } from '../../core/http/response-schema';
import { salesOrderKeys } from '../sales-order';
import { BoletoResponse } from '../collection';

/** Response bodies of the quick-sale routes (quick-sale.mapper.ts). */

/** POST /sales-order with flowMode QUICK_SALE: the FULFILLED order, the payments taken and the change. */
export const QuickSaleOrder = named(
  'QuickSaleOrder',
  obj({
    ...salesOrderKeys,
    payments: Joi.array().items(
      obj({ method: Joi.string().example('DINHEIRO'), paymentMethodId: hashid('payment-method'), amount: money(), change: money() }),
    ),
    change: money().description('change given back'),
    boletos: Joi.array()
      .items(BoletoResponse)
      .description(
        'boleto on billing: one per receivable of the a-prazo payments when the body names a boletoBankAccountId (cash, Pix and cards have none); else empty',
      ),
    fiscalDocument: obj({
      id: hashid('nfce'),
      model: Joi.number().valid(65),
      status: Joi.string().valid('SIGNED', 'AUTHORIZED', 'CONTINGENCY', 'REJECTED', 'CANCELLED').example('AUTHORIZED'),
      accessKey: Joi.string().example('35261111222333000181650010000000071000012588'),
      number: Joi.number().integer().example(7),
      series: Joi.number().integer().example(1),
      qrCodeUrl: Joi.string().example(
        'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=35261111222333000181650010000000071000012588|3|2',
      ),
      contingency: Joi.boolean().description('issued in offline contingency (tpEmis 9); the transmission queue sends it'),
      protocol: Joi.string().allow(null),
      cStat: Joi.string().allow(null),
    })
      .optional()
      .description("the sale's NFC-e (modelo 65), when the filial issues one with every quick sale"),
  }),
);

export const QuickSaleConfiguration = named(
  'QuickSaleConfiguration',
  obj({
    filialId: hashid('filial'),
    configured: Joi.boolean().description('false: defaults, never saved'),
    enabled: Joi.boolean(),
    defaultCustomerId: hashid('customer').allow(null),
    defaultSellerId: hashid('seller').allow(null),
    paymentMethods: Joi.array().items(Joi.string().example('DINHEIRO')).description('payment method codes accepted at the counter'),
    defaultPaymentMethod: Joi.string().allow(null).example('DINHEIRO'),
    allowNegativeStock: Joi.boolean(),
    requireCustomer: Joi.boolean(),
    maxDiscountPercent: percent(),
    requireCashSession: Joi.boolean().description('sales only in an open cash session of their terminal'),
    cashDifferenceLimit: money().description("a close's difference above it waits for a supervisor"),
    version: Joi.number().integer().example(1),
    updatedAt: timestamp().allow(null),
  }),
);

export const ConfigurationProblem = named(
  'QuickSaleConfigurationProblem',
  obj({
    code: Joi.string().example('QUICK_SALE_NOT_CONFIGURED'),
    field: Joi.string().example('configuration'),
    message: Joi.string().example('Quick sale has not been configured for this filial'),
  }),
);

export const ConfigurationValidation = named(
  'QuickSaleConfigurationValidation',
  obj({ valid: Joi.boolean(), problems: Joi.array().items(ConfigurationProblem) }),
);
