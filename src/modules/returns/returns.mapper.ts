import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { SalesReturnItem } from './entities/sales-return-item.entity';
import type { SalesReturn } from './entities/sales-return.entity';
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

export const toReturnDto = ({ ret, items }: { ret: SalesReturn; items: SalesReturnItem[] }) => ({
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
  })),
  createdBy: ret.actor,
  createdAt: new Date(ret.createdAt).toISOString(),
});
