import { decimal, id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { Dec } from '../../core/decimal';

/* Request schemas of /transfers. */

export const transferSchemas = {
  create: typedSchema<{ body: { toFilialId: number; items: { productId: number; quantity: Dec }[]; notes?: string | null } }>({
    body: Joi.object({
      toFilialId: id('filial').required().description('the receiving filial (another filial of the company)'),
      items: Joi.array()
        .items(Joi.object({ productId: id('product').required(), quantity: decimal('quantity', { positive: true }).required() }))
        .min(1)
        .max(990)
        .unique('productId')
        .required()
        .description('one line per product'),
      notes: Joi.string().trim().max(500).allow(null),
    }),
  }),
  byId: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('transfer').required() }) }),
};
