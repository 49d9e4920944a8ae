import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, oneOf, page, quantity, taxDocument, timestamp, unitPrice } from '../../core/http/response-schema';

/** Response bodies of the supplier-returns routes (supplier-returns.mapper.ts). */

const STATUSES = ['ISSUED', 'AUTHORIZED', 'REJECTED', 'DENIED', 'VOIDED', 'FAILED', 'CANCELLED'];
const accessKey = () => Joi.string().example('35251112345678000195550010000123451234567890');

const Supplier = obj({
  id: hashid('supplier'),
  document: taxDocument(),
  name: Joi.string().example('Distribuidora Paulista de Alimentos Ltda'),
});

const Credits = named(
  'SupplierReturnCredits',
  obj({ icms: money(), pis: money(), cofins: money(), ipi: money(), cbs: money(), ibs: money() }),
);

const Totals = named(
  'SupplierReturnTotals',
  obj({
    products: money(),
    discount: money(),
    freight: money(),
    insurance: money(),
    otherExpenses: money(),
    icms: money(),
    ipi: money(),
    icmsSt: money(),
    total: money(),
  }),
);

const lineValues = {
  cfop: Joi.string().example('5202'),
  quantity: quantity(),
  stockQuantity: quantity(),
  unitPrice: unitPrice(),
  productsValue: money(),
  discount: money(),
  freight: money(),
  insurance: money(),
  otherExpenses: money(),
  icmsBase: money(),
  icms: money(),
  ipiBase: money(),
  ipi: money(),
  icmsStBase: money(),
  icmsSt: money(),
  total: money(),
  entryUnitCost: unitPrice().allow(null),
  stockValue: money(),
  creditsReversed: Credits,
};

const returnFields = {
  id: hashid('supplier-return'),
  code: Joi.number().integer().example(37),
  filialId: hashid('filial'),
  entryDocumentId: hashid('entry-document'),
  referencedKey: accessKey().allow(null),
  supplier: Supplier,
  status: oneOf(...STATUSES),
  reason: Joi.string().example('Mercadoria avariada no transporte'),
  invoiceId: hashid('invoice').allow(null),
  totals: Totals,
  stockValue: money(),
  creditsReversed: Credits,
  payablesDeducted: money(),
  supplierCredit: money(),
  items: Joi.array().items(
    obj({
      id: hashid('supplier-return-item'),
      lineNumber: Joi.number().integer().example(1),
      entryDocumentItemId: hashid('entry-document-item'),
      productId: hashid('product').allow(null),
      purchaseOrderItemId: hashid('purchase-order-item').allow(null),
      ...lineValues,
    }),
  ),
  createdBy: Joi.string().example('ana.souza'),
  createdAt: timestamp(),
  authorizedAt: timestamp().allow(null),
  cancelledAt: timestamp().allow(null),
  version: Joi.number().integer().example(2),
};

export const SupplierReturn = named('SupplierReturn', obj(returnFields));
export const SupplierReturnPage = page('SupplierReturnPage', SupplierReturn);

export const SupplierReturnDetail = named(
  'SupplierReturnDetail',
  obj({
    ...returnFields,
    settlement: obj({
      payables: Joi.array().items(obj({ payableId: hashid('payable'), amount: money(), status: oneOf('ACTIVE', 'REVERSED') })),
      supplierCredits: Joi.array().items(obj({ id: hashid('supplier-credit'), amount: money(), status: oneOf('OPEN', 'CANCELLED') })),
    }),
  }),
);

export const SupplierReturnableLines = named(
  'SupplierReturnableLines',
  obj({
    entryDocumentId: hashid('entry-document'),
    status: oneOf('DRAFT', 'CONFIRMED', 'CANCELLED'),
    referencedKey: accessKey().allow(null),
    supplier: Supplier,
    lines: Joi.array().items(
      obj({
        entryDocumentItemId: hashid('entry-document-item'),
        lineNumber: Joi.number().integer().example(1),
        productId: hashid('product').allow(null),
        description: Joi.string().example('Azeite extra virgem 500 ml'),
        unit: Joi.string().example('CX'),
        operationClass: Joi.string().allow(null).example('PURCHASE_RESALE'),
        entryCfop: Joi.string().allow(null).example('1102'),
        quantity: quantity(),
        returnedQuantity: quantity(),
        returnableQuantity: quantity(),
        unitPrice: unitPrice(),
        entryUnitCost: unitPrice().allow(null),
        notReturnableReason: Joi.string().allow(null),
      }),
    ),
  }),
);

export const SupplierReturnPreview = named(
  'SupplierReturnPreview',
  obj({
    entryDocumentId: hashid('entry-document'),
    referencedKey: accessKey().allow(null),
    interstate: Joi.boolean(),
    lines: Joi.array().items(
      obj({
        lineNumber: Joi.number().integer().example(1),
        entryDocumentItemId: hashid('entry-document-item'),
        productId: hashid('product').allow(null),
        description: Joi.string().example('Azeite extra virgem 500 ml'),
        unit: Joi.string().example('CX'),
        ...lineValues,
      }),
    ),
    totals: Totals,
    stockValue: money(),
    creditsReversed: Credits,
    stockMovements: Joi.array().items(
      obj({
        productId: hashid('product'),
        quantity: quantity(),
        unitCost: unitPrice(),
        balanceBefore: quantity(),
        balanceAfter: quantity(),
        averageCostBefore: unitPrice(),
        averageCostAfter: unitPrice(),
      }),
    ),
    payables: Joi.array().items(
      obj({
        payableId: hashid('payable'),
        installmentNumber: Joi.number().integer().example(2),
        amount: money(),
        amountAfter: money(),
        statusAfter: oneOf('OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'),
      }),
    ),
    supplierCredit: money(),
    warnings: Joi.array().items(obj({ code: Joi.string().example('INSUFFICIENT_STOCK'), message: Joi.string() })),
  }),
);
