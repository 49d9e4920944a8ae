import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';

const filialParams = Joi.object({ filialId: id('filial').required() });

export const returnSchemas = {
  returnableItems: { params: filialParams, query: Joi.object({ customerId: id('customer').required(), ...pagination }) },
  register: {
    params: filialParams,
    body: Joi.object({
      customerId: id('customer').required(),
      reason: Joi.string().trim().min(3).max(500).required(),
      refundMethod: Joi.string().trim().uppercase().pattern(/^[A-Z0-9_]{1,30}$/).required(),
      items: Joi.array()
        .items(
          Joi.object({
            salesOrderItemId: id('sales-order-item').required(),
            quantity: decimal('quantity', { positive: true }).required(),
            restock: Joi.boolean().required(),
          }),
        )
        .min(1)
        .max(500)
        .required(),
    }),
  },
  list: { params: filialParams, query: Joi.object({ ...pagination, customerId: id('customer'), from: isoDate(), to: isoDate() }) },
  detail: { params: Joi.object({ id: id('return').required() }) },
};
