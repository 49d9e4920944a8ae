import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, page, quantity, timestamp, unitPrice } from '../../core/http/response-schema';

/** Response bodies of the returns routes (returns.mapper.ts). */
export const ReturnableItem = named(
  'ReturnableItem',
  obj({
    salesOrderId: hashid('sales-order'),
    salesOrderCode: Joi.number().integer().example(1587),
    salesOrderItemId: hashid('sales-order-item'),
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    unitPrice: unitPrice(),
    discount: money(),
    orderDiscountShare: money(),
    total: money(),
    quantity: quantity(),
    fulfilledQuantity: quantity(),
    returnedQuantity: quantity(),
    returnableQuantity: quantity(),
    fulfilledAt: timestamp().allow(null),
  }),
);
export const ReturnableItemPage = page('ReturnableItemPage', ReturnableItem);

export const SalesReturn = named(
  'SalesReturn',
  obj({
    id: hashid('return'),
    code: Joi.number().integer().example(214),
    filialId: hashid('filial'),
    customerId: hashid('customer'),
    reason: Joi.string().allow(null).example('Embalagem danificada'),
    refundMethod: Joi.string().allow(null).example('DINHEIRO'),
    refundAmount: money(),
    items: Joi.array().items(
      obj({
        salesOrderId: hashid('sales-order'),
        salesOrderItemId: hashid('sales-order-item'),
        productId: hashid('product'),
        quantity: quantity(),
        restock: Joi.boolean(),
        unitCost: unitPrice(),
        refundAmount: money(),
      }),
    ),
    createdBy: Joi.string().example('ana.souza'),
    createdAt: timestamp(),
  }),
);
export const SalesReturnPage = page('SalesReturnPage', SalesReturn);
