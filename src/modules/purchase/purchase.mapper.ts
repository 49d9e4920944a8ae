import { toJsonNumber } from '../../core/decimal';
import { mapPage } from '../../core/pagination';
import { encodeId } from '../../core/hashids';
import type { PurchaseOrderItem } from './entities/purchase-order-item.entity';
import type { PurchaseOrderReceipt } from './entities/purchase-order-receipt.entity';
import type { PurchaseOrder } from './entities/purchase-order.entity';
import { netUnitPrice, openQuantityOf } from './purchase.lines';
import type { OrderWithItems } from './purchase.repository';
import type { OpenItem, ReceiptsView } from './services/query.service';

/* Response shapes: hashids, decimals rounded to their scale, no entity leaves. */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const qty = (v: PurchaseOrderItem['quantity']) => toJsonNumber(v, 'quantity');
const amount = (v: PurchaseOrderItem['total']) => toJsonNumber(v, 'amount');

export const toItemDto = (i: PurchaseOrderItem, o: Pick<PurchaseOrder, 'expectedDate'>) => ({
  purchaseOrderItemId: encodeId('purchase-order-item', i.id),
  lineNumber: i.lineNumber,
  productId: encodeId('product', i.productId),
  description: i.description,
  unit: i.unit,
  supplierProductCode: i.supplierProductCode,
  quantity: qty(i.quantity),
  unitPrice: toJsonNumber(i.unitPrice, 'price'),
  discount: amount(i.discount),
  total: amount(i.total),
  expectedDate: i.expectedDate ?? o.expectedDate,
  receivedQuantity: qty(i.receivedQuantity),
  cancelledQuantity: qty(i.cancelledQuantity),
  openQuantity: qty(openQuantityOf(i)),
});

const supplierDto = (o: PurchaseOrder) => ({ id: encodeId('supplier', o.supplierId), document: o.supplierDocument, name: o.supplierName });

export const toPurchaseOrderDto = ({ order: o, items }: OrderWithItems) => ({
  id: encodeId('purchase-order', o.id),
  code: o.code,
  filialId: encodeId('filial', o.filialId),
  status: o.status,
  supplier: supplierDto(o),
  expectedDate: o.expectedDate,
  paymentTerms: o.paymentInstallments === null ? null : { installments: o.paymentInstallments, days: o.paymentDays },
  freightTerms: o.freightTerms,
  notes: o.notes,
  items: items.map((i) => toItemDto(i, o)),
  totals: { products: amount(o.totalProducts), discount: amount(o.totalDiscount), total: amount(o.total) },
  approvedAt: iso(o.approvedAt),
  approvedBy: o.approvedBy,
  cancelledAt: iso(o.cancelledAt),
  cancelReason: o.cancelReason,
  closedAt: iso(o.closedAt),
  closeReason: o.closeReason,
  version: o.version,
  createdAt: iso(o.createdAt),
  updatedAt: iso(o.updatedAt),
});
export type PurchaseOrderDto = ReturnType<typeof toPurchaseOrderDto>;

export const toOpenItemDto = ({ item: i, order: o }: OpenItem) => ({
  purchaseOrderItemId: encodeId('purchase-order-item', i.id),
  purchaseOrderId: encodeId('purchase-order', o.id),
  purchaseOrderCode: o.code,
  purchaseOrderStatus: o.status,
  supplier: supplierDto(o),
  lineNumber: i.lineNumber,
  productId: encodeId('product', i.productId),
  description: i.description,
  unit: i.unit,
  supplierProductCode: i.supplierProductCode,
  quantity: qty(i.quantity),
  receivedQuantity: qty(i.receivedQuantity),
  openQuantity: qty(openQuantityOf(i)),
  unitPrice: toJsonNumber(i.unitPrice, 'price'),
  netUnitPrice: toJsonNumber(netUnitPrice(i), 'price'),
  expectedDate: i.expectedDate ?? o.expectedDate,
});

export const toReceiptDto = (r: PurchaseOrderReceipt) => ({
  purchaseOrderItemId: encodeId('purchase-order-item', r.purchaseOrderItemId),
  entryDocumentId: encodeId('entry-document', r.entryDocumentId),
  entryDocumentItemId: encodeId('entry-document-item', r.entryDocumentItemId),
  lineNumber: r.lineNumber,
  number: r.documentNumber,
  series: r.documentSeries,
  accessKey: r.accessKey,
  issueDate: r.issueDate,
  entryDate: r.entryDate,
  status: r.status,
  quantity: qty(r.quantity),
  invoiceQuantity: qty(r.invoiceQuantity),
  invoiceUnit: r.invoiceUnit,
  conversionFactor: toJsonNumber(r.conversionFactor, 'factor'),
  unitPrice: toJsonNumber(r.unitPrice, 'price'),
  orderUnitPrice: toJsonNumber(r.orderUnitPrice, 'price'),
  receivedAt: iso(r.receivedAt),
  cancelledAt: iso(r.cancelledAt),
});

export const toReceiptsDto = (v: ReceiptsView) => ({
  purchaseOrderId: encodeId('purchase-order', v.order.id),
  code: v.order.code,
  status: v.order.status,
  version: v.order.version,
  items: v.items.map((i) => ({
    purchaseOrderItemId: encodeId('purchase-order-item', i.id),
    lineNumber: i.lineNumber,
    productId: encodeId('product', i.productId),
    ordered: qty(i.quantity),
    received: qty(i.receivedQuantity),
    cancelled: qty(i.cancelledQuantity),
    open: qty(openQuantityOf(i)),
  })),
  // The receipts are the list (two-phase, `page`/`pageSize`/`cursor`): `data` and `pagination`.
  ...mapPage(v.receipts, toReceiptDto),
});
