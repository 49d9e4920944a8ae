import { decimal, document, id, Joi, pagination, version } from '../../core/http/schema';
import { isValidGtin } from '../../core/gtin';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { DecimalInput } from '../../core/decimal';
import type { AutoCreateInput, HistoryQuery, LinkInput } from './product-map.service';
import type { SupplierItem } from './product-match.service';

/** NF-e cEAN as found on invoices: a GTIN, "SEM GTIN" or empty. Only a valid GTIN is ever compared. */
const supplierGtin = Joi.string().trim().max(14).allow('', null);

/** A GTIN the caller states for us to store: "SEM GTIN"/empty mean none; digits must carry a valid check digit. */
const statedGtin = Joi.string()
  .trim()
  .allow('', null)
  .custom((value: string, helpers) => {
    if (value === '' || value.toUpperCase() === 'SEM GTIN') return null;
    return isValidGtin(value) ? value : helpers.error('gtin.invalid');
  }, 'gtin')
  .messages({ 'gtin.invalid': '{{#label}} must be a GTIN-8/12/13/14 with a valid check digit (or "SEM GTIN")' });

const supplierDocument = document().required();
const supplierProductCode = Joi.string().trim().min(1).max(60);
const supplierUnit = Joi.string().trim().uppercase().min(1).max(6);
const conversionFactor = decimal('factor', { positive: true, max: 999999999 });

export const MAX_MATCH_ITEMS = 990;

type ByEntry = { params: { id: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const productMapSchemas = {
  match: typedSchema<{ body: { supplierDocument: string; items: SupplierItem[] } }>({
    body: Joi.object({
      supplierDocument,
      items: Joi.array()
        .items(
          Joi.object({
            code: supplierProductCode.required(),
            description: Joi.string().trim().max(500).allow('').required(),
            gtin: supplierGtin,
            unit: supplierUnit.required(),
          }),
        )
        .min(1)
        .max(MAX_MATCH_ITEMS)
        .required(),
    }),
  }),
  link: typedSchema<{ body: Omit<LinkInput, 'countUse'> }>({
    body: Joi.object({
      supplierDocument,
      supplierProductCode: supplierProductCode.required(),
      productId: id('product').required(),
      conversionFactor: conversionFactor.default(1),
      supplierUnit: supplierUnit.required(),
      supplierDescription: Joi.string().trim().max(120).allow('', null),
      gtin: statedGtin,
    }),
  }),
  autoCreate: typedSchema<{ body: AutoCreateInput }>({
    body: Joi.object({
      supplierDocument,
      supplierProductCode: supplierProductCode.required(),
      description: Joi.string().trim().min(1).max(120).required(),
      unit: supplierUnit.required().description("the supplier's unit (uCom)"),
      productUnit: supplierUnit.description('stock unit of the new product (default: unit)'),
      conversionFactor: conversionFactor.default(1),
      ncm: Joi.string()
        .pattern(/^\d{8}$/)
        .allow(null)
        .message('{{#label}} must have 8 digits'),
      cest: Joi.string()
        .pattern(/^\d{7}$/)
        .allow(null)
        .message('{{#label}} must have 7 digits'),
      gtin: statedGtin,
      code: Joi.string().trim().min(1).max(30).description('own product code; the next code is used when absent or taken'),
      price: decimal('price', { min: 0 }),
    }),
  }),
  search: typedSchema<{ query: PageRequest & { q: string; active?: boolean } }>({
    query: Joi.object({ ...pagination, q: Joi.string().trim().min(1).max(100).required().example('café'), active: Joi.boolean() }),
  }),
  nextCode: {},
  history: typedSchema<{ params: { supplierDocument: string; filialId: number }; query: HistoryQuery }>({
    params: Joi.object({ supplierDocument, filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      purchases: Joi.number().integer().min(0).max(20).default(5).description('last purchases per entry'),
      sort: Joi.string().valid('supplierProductCode', '-useCount').default('supplierProductCode'),
    }),
  }),
  conversionFactor: typedSchema<ByEntry & { body: { conversionFactor: DecimalInput; version: number } }>({
    params: Joi.object({ id: id('product-map').required() }),
    body: Joi.object({
      conversionFactor: conversionFactor.required(),
      version: version(),
    }),
  }),
  remove: typedSchema<ByEntry>({
    params: Joi.object({ id: id('product-map').required() }),
  }),
};
