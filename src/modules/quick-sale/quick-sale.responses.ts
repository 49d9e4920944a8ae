import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, percent, timestamp } from '../../core/http/response-schema';
import { salesOrderKeys } from '../sales-order/sales-order.responses';

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
    version: Joi.number().integer().example(1),
    updatedAt: timestamp().allow(null),
  }),
);

export const ConfigurationProblem = named(
  'QuickSaleConfigurationProblem',
  obj({ code: Joi.string().example('QUICK_SALE_NOT_CONFIGURED'), field: Joi.string().example('configuration'), message: Joi.string().example('Quick sale has not been configured for this filial') }),
);

export const ConfigurationValidation = named('QuickSaleConfigurationValidation', obj({ valid: Joi.boolean(), problems: Joi.array().items(ConfigurationProblem) }));
