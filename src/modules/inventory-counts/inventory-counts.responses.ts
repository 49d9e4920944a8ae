import Joi from 'joi';
import { date, hashid, money, named, obj, oneOf, quantity, timestamp, unitPrice } from '../../core/http/response-schema';
import { INVENTORY_COUNT_STATUSES, INVENTORY_MOTIVES } from './entities/inventory-count.entity';

/* Response bodies of /inventory/counts (mirror inventory-counts.mapper.ts). */

const Line = named(
  'InventoryCountLine',
  obj({
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    code: Joi.string().example('000123'),
    description: Joi.string().example('Cerveja Pilsen lata 350 ml'),
    unit: Joi.string().example('UN'),
    countedQuantity: quantity().allow(null).description('null until counted'),
    countedBy: Joi.string().allow(null).example('joao.caixa'),
    countedAt: timestamp().allow(null),
    expectedQuantity: quantity().allow(null).description('the balance when the line was counted; null for a counter (blind count)'),
    difference: quantity().allow(null).description('counted − expected, posted at the close; null while open or for a counter'),
    snapshotQuantity: quantity().allow(null).description('the balance after the close (the inventory)'),
    unitCost: unitPrice().allow(null).description('average cost at the close'),
    value: money().allow(null).description('snapshot quantity × average cost'),
    reason: Joi.string().allow(null).example('Quebra no depósito'),
  }),
);

export const InventoryCount = named(
  'InventoryCount',
  obj({
    id: hashid('inventory-count'),
    filialId: hashid('filial'),
    status: oneOf(...INVENTORY_COUNT_STATUSES).description('OPEN: being counted; CLOSED: adjusted and valued; CANCELLED'),
    countDate: date().example('2026-12-31'),
    motive: oneOf(...INVENTORY_MOTIVES).description('MOT_INV of H005'),
    notes: Joi.string().allow(null).example('Inventário anual'),
    lineCount: Joi.number().integer().example(120),
    countedLines: Joi.number().integer().example(87),
    blind: Joi.boolean().description('true: this token counts blind (no expected quantities)'),
    totalValue: money().allow(null).description('H005 VL_INV once closed'),
    createdBy: Joi.string().example('maria.souza'),
    closedBy: Joi.string().allow(null),
    closedAt: timestamp().allow(null),
    version: Joi.number().integer().example(1),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    lines: Joi.array().items(Line),
  }),
);
