import type { Dec } from '../../core/decimal';
import { decimal, id, isoDate, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { INVENTORY_MOTIVES, InventoryMotive } from './entities/inventory-count.entity';

/* Request schemas of /inventory/counts. */

const byId = Joi.object({ id: id('inventory-count').required() });

export const inventoryCountSchemas = {
  create: typedSchema<{ body: { countDate?: string; motive?: InventoryMotive; productIds?: number[]; notes?: string | null } }>({
    body: Joi.object({
      countDate: isoDate().description('the inventory date (H005 DT_INV); default today'),
      motive: Joi.string()
        .valid(...INVENTORY_MOTIVES)
        .description(
          'MOT_INV: 01 end of period (31/12), 02 tax regime change, 03 closing, 04 ICMS treatment change, 05 ordered by the authority, 06 ST control; default 01',
        ),
      productIds: Joi.array()
        .items(id('product').required())
        .min(1)
        .max(5000)
        .unique()
        .description('the sheet; default every stock-controlled product with a balance at the filial'),
      notes: Joi.string().trim().max(500).allow(null),
    }),
  }),
  byId: typedSchema<{ params: { id: number } }>({ params: byId }),
  count: typedSchema<{ params: { id: number }; body: { lines: { productId: number; countedQuantity: Dec; reason?: string | null }[] } }>({
    params: byId,
    body: Joi.object({
      lines: Joi.array()
        .items(
          Joi.object({
            productId: id('product').required(),
            countedQuantity: decimal('quantity', { min: 0 }).required().description('what was counted, in the product’s stock unit'),
            reason: Joi.string()
              .trim()
              .max(200)
              .allow(null)
              .description('why it differs (breakage, theft, wrong receipt…): the adjustment’s reason'),
          }),
        )
        .min(1)
        .max(5000)
        .unique('productId')
        .required(),
    }),
  }),
  close: typedSchema<{ params: { id: number }; body: { version?: number } }>({
    params: byId,
    body: Joi.object({
      version: Joi.number().integer().min(1).description('the version read; a stale one is refused (409 STALE_VERSION)'),
    }),
  }),
};
