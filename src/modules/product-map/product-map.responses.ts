import { Joi } from '../../core/http/schema';
import { date, hashid, named, obj, oneOf, Pagination, quantity, taxDocument, timestamp, unitPrice } from '../../core/http/response-schema';
import { ProductResponse as Product } from '../catalog';

/** Response bodies of the product-map routes (product-map.mapper.ts). */
const factor = () => Joi.number().description('conversion factor, up to 6 decimal places').example(12);

export const ProductSummary = named(
  'ProductSummary',
  obj({
    id: hashid('product'),
    code: Joi.string().example('CAFE-500'),
    name: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    active: Joi.boolean(),
  }),
);

const entryKeys = {
  id: hashid('product-map'),
  supplierDocument: taxDocument(),
  supplierProductCode: Joi.string().example('7891-CX12'),
  supplierUnit: Joi.string().example('CX'),
  supplierDescription: Joi.string().allow(null).example('CAFE TORRADO MOIDO 500G CX C/12'),
  gtin: Joi.string().allow(null).example('17891000315504'),
  productId: hashid('product'),
  conversionFactor: factor(),
  lastUsedAt: timestamp().allow(null),
  useCount: Joi.number().integer().example(7),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const ProductMapEntry = named('ProductMapEntry', obj(entryKeys));

export const ProductMatch = named(
  'ProductMatch',
  obj({
    supplierDocument: taxDocument(),
    summary: obj({
      total: Joi.number().integer().example(3),
      matched: Joi.number().integer().example(1),
      suggested: Joi.number().integer().example(1),
      unmatched: Joi.number().integer().example(1),
    }),
    items: Joi.array().items(
      obj({
        index: Joi.number().integer().description('position in the request').example(0),
        code: Joi.string().example('7891-CX12'),
        status: oneOf('MATCHED', 'SUGGESTED', 'UNMATCHED'),
        productId: hashid('product').allow(null),
        conversionFactor: factor().allow(null),
        source: oneOf('MAP', 'GTIN', 'DESCRIPTION').allow(null),
        mapEntryId: hashid('product-map').allow(null),
        product: ProductSummary.allow(null),
        suggestions: Joi.array().items(
          obj({ productId: hashid('product'), score: Joi.number().description('0..1').example(0.82), product: ProductSummary }),
        ),
      }),
    ),
  }),
);

export const AutoCreateResult = named(
  'ProductMapAutoCreateResult',
  obj({
    product: Product,
    entry: ProductMapEntry,
    codeSource: oneOf('GIVEN', 'NEXT_CODE').description('the given code, or the next free one when absent or taken'),
  }),
);

export const NextCode = named('ProductNextCode', obj({ code: Joi.string().example('1043') }));

const HistoryRow = named(
  'ProductMapHistoryRow',
  obj({
    ...entryKeys,
    product: ProductSummary.allow(null),
    lastPurchases: Joi.array().items(
      obj({
        entryDocumentId: hashid('entry-document'),
        entryDocumentItemId: hashid('entry-document-item'),
        number: Joi.string().example('18342'),
        series: Joi.string().example('1'),
        entryDate: date(),
        productId: hashid('product').allow(null),
        unit: Joi.string().example('CX'),
        quantity: quantity(),
        unitPrice: unitPrice(),
        conversionFactor: factor(),
      }),
    ),
  }),
);

export const SupplierHistory = named(
  'ProductMapSupplierHistory',
  obj({
    supplierDocument: taxDocument(),
    supplier: obj({
      id: hashid('supplier'),
      name: Joi.string().example('Distribuidora Santa Clara Ltda'),
      tradeName: Joi.string().allow(null).example('Santa Clara'),
    }).allow(null),
    data: Joi.array().items(HistoryRow),
    pagination: Pagination,
  }),
);
