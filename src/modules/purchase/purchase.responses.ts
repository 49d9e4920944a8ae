import { Joi } from '../../core/http/schema';
import {
  date,
  hashid,
  money,
  named,
  obj,
  oneOf,
  Pagination,
  quantity,
  taxDocument,
  timestamp,
  unitPrice,
} from '../../core/http/response-schema';

/** Response bodies of the purchase-order routes (purchase.mapper.ts). */
const status = oneOf('DRAFT', 'APPROVED', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED', 'CLOSED');
const code = () => Joi.number().integer().description('sequential per filial').example(314);
const factor = () => Joi.number().description('conversion factor, up to 6 decimal places').example(12);

const Supplier = named(
  'PurchaseOrderSupplier',
  obj({ id: hashid('supplier'), document: taxDocument(), name: Joi.string().example('Distribuidora Santa Clara Ltda') }),
);

export const PurchaseOrderItem = named(
  'PurchaseOrderItem',
  obj({
    purchaseOrderItemId: hashid('purchase-order-item'),
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    supplierProductCode: Joi.string().allow(null).example('7891-CX12'),
    quantity: quantity(),
    unitPrice: unitPrice(),
    discount: money(),
    total: money(),
    expectedDate: date().allow(null).description("the line's, else the order's"),
    receivedQuantity: quantity(),
    cancelledQuantity: quantity(),
    openQuantity: quantity(),
  }),
);

export const PurchaseOrder = named(
  'PurchaseOrder',
  obj({
    id: hashid('purchase-order'),
    code: code(),
    filialId: hashid('filial'),
    status,
    supplier: Supplier,
    expectedDate: date().allow(null),
    paymentTerms: obj({
      installments: Joi.number().integer().example(3),
      days: Joi.number().integer().allow(null).description('days between installments').example(30),
    }).allow(null),
    freightTerms: oneOf('CIF', 'FOB', 'THIRD_PARTY', 'NONE').allow(null),
    notes: Joi.string().allow(null).example('Entregar na doca 2, das 7h às 11h'),
    items: Joi.array().items(PurchaseOrderItem),
    totals: obj({ products: money(), discount: money(), total: money() }),
    approvedAt: timestamp().allow(null),
    approvedBy: Joi.string().allow(null).example('carlos.lima'),
    cancelledAt: timestamp().allow(null),
    cancelReason: Joi.string().allow(null).example('Fornecedor sem estoque'),
    closedAt: timestamp().allow(null),
    closeReason: Joi.string().allow(null).example('Saldo não será entregue'),
    version: Joi.number().integer().example(1),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const PurchaseOrderPage = named('PurchaseOrderPage', obj({ data: Joi.array().items(PurchaseOrder), pagination: Pagination }));

const OpenItem = named(
  'PurchaseOrderOpenItem',
  obj({
    purchaseOrderItemId: hashid('purchase-order-item'),
    purchaseOrderId: hashid('purchase-order'),
    purchaseOrderCode: code(),
    purchaseOrderStatus: oneOf('APPROVED', 'PARTIALLY_RECEIVED'),
    supplier: Supplier,
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    supplierProductCode: Joi.string().allow(null).example('7891-CX12'),
    quantity: quantity(),
    receivedQuantity: quantity(),
    openQuantity: quantity(),
    unitPrice: unitPrice(),
    netUnitPrice: unitPrice().description('unit price after the line discount'),
    expectedDate: date().allow(null),
  }),
);

export const OpenItemPage = named('PurchaseOrderOpenItemPage', obj({ data: Joi.array().items(OpenItem), pagination: Pagination }));

const Receipt = named(
  'PurchaseOrderReceipt',
  obj({
    purchaseOrderItemId: hashid('purchase-order-item'),
    entryDocumentId: hashid('entry-document'),
    entryDocumentItemId: hashid('entry-document-item'),
    lineNumber: Joi.number().integer().description("the entry document's line").example(1),
    number: Joi.string().example('18342'),
    series: Joi.string().example('1'),
    accessKey: Joi.string().allow(null).example('35260311222333000181550010000183421000183428'),
    issueDate: date(),
    entryDate: date(),
    status: oneOf('CONFIRMED', 'CANCELLED'),
    quantity: quantity().description('in the order unit'),
    invoiceQuantity: quantity(),
    invoiceUnit: Joi.string().example('CX'),
    conversionFactor: factor(),
    unitPrice: unitPrice().description('invoice price per order unit'),
    orderUnitPrice: unitPrice(),
    receivedAt: timestamp(),
    cancelledAt: timestamp().allow(null),
  }),
);

export const PurchaseOrderReceipts = named(
  'PurchaseOrderReceipts',
  obj({
    purchaseOrderId: hashid('purchase-order'),
    code: code(),
    status,
    version: Joi.number().integer().example(3),
    items: Joi.array().items(
      obj({
        purchaseOrderItemId: hashid('purchase-order-item'),
        lineNumber: Joi.number().integer().example(1),
        productId: hashid('product'),
        ordered: quantity(),
        received: quantity(),
        cancelled: quantity(),
        open: quantity(),
      }),
    ),
    data: Joi.array().items(Receipt),
    pagination: Pagination,
  }),
);
