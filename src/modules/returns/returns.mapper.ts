import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { ReturnView } from './returns.service';
import type { ReturnableLine } from './returns.repository';

export const toReturnableItemDto = ({ order, item, fulfilledAt }: ReturnableLine) => ({
  salesOrderId: encodeId('sales-order', order.id),
  salesOrderCode: order.code,
  salesOrderItemId: encodeId('sales-order-item', item.id),
  lineNumber: item.lineNumber,
  productId: encodeId('product', item.productId),
  description: item.description,
  unit: item.unit,
  unitPrice: toJsonNumber(item.unitPrice, 'price'),
  discount: toJsonNumber(item.discount, 'amount'),
  orderDiscountShare: toJsonNumber(item.orderDiscountShare, 'amount'),
  total: toJsonNumber(item.total, 'amount'),
  quantity: toJsonNumber(item.quantity, 'quantity'),
  fulfilledQuantity: toJsonNumber(item.fulfilledQuantity, 'quantity'),
  returnedQuantity: toJsonNumber(item.returnedQuantity, 'quantity'),
  returnableQuantity: toJsonNumber(item.fulfilledQuantity.minus(item.returnedQuantity), 'quantity'),
  fulfilledAt: fulfilledAt ? fulfilledAt.toISOString() : null,
});

export const toReturnDto = ({ ret, items, documents, credits, refund, documentProblem }: ReturnView) => ({
  id: encodeId('return', ret.id),
  code: ret.code,
  filialId: encodeId('filial', ret.filialId),
  customerId: encodeId('customer', ret.customerId),
  reason: ret.reason,
  refundMethod: ret.refundMethod,
  refundAmount: toJsonNumber(ret.refundAmount, 'amount'),
  items: items.map((i) => ({
    salesOrderId: encodeId('sales-order', i.salesOrderId),
    salesOrderItemId: encodeId('sales-order-item', i.salesOrderItemId),
    productId: encodeId('product', i.productId),
    quantity: toJsonNumber(i.quantity, 'quantity'),
    restock: i.restock,
    unitCost: toJsonNumber(i.unitCost, 'cost'),
    refundAmount: toJsonNumber(i.refundAmount, 'amount'),
    fiscalOrigins: (i.fiscalOrigins ?? []).map((o) => ({
      accessKey: o.accessKey,
      lineNumber: o.lineNumber,
      quantity: toJsonNumber(o.quantity, 'quantity'),
    })),
  })),
  origin: ret.origin,
  originStatus: ret.originStatus,
  importedAccessKey: ret.importedAccessKey,
  documents: documents.map((d) => ({
    invoiceId: encodeId('invoice', d.invoiceId),
    status: d.status,
    accessKey: d.accessKey,
    series: d.series,
    number: d.number,
    live: d.live,
  })),
  credits: credits.map((c) => ({
    tax: c.tax,
    base: toJsonNumber(c.base, 'amount'),
    amount: toJsonNumber(c.amount, 'amount'),
    accessKey: c.accessKey,
    status: c.status,
    entryDate: c.entryDate,
  })),
  refund: {
    receivables: refund.receivables.map((r) => ({
      receivableId: encodeId('receivable', r.receivableId),
      salesOrderId: encodeId('sales-order', r.salesOrderId),
      amount: toJsonNumber(r.amount, 'amount'),
    })),
    customerCredits: refund.customerCredits.map((c) => ({
      id: encodeId('customer-credit', c.id),
      kind: c.kind,
      method: c.methodCode,
      salesOrderId: encodeId('sales-order', c.salesOrderId),
      amount: toJsonNumber(c.amount, 'amount'),
    })),
  },
  documentProblem: documentProblem ?? null,
  createdBy: ret.actor,
  createdAt: new Date(ret.createdAt).toISOString(),
});
