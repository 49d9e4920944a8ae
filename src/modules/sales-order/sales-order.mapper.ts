import { Dec, storedDifferenceToJsonNumber, storedToJsonNumber, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { FulfillmentItem } from './entities/fulfillment-item.entity';
import type { Fulfillment } from './entities/fulfillment.entity';
import type { LineOrigin, SalesOrderItem } from './entities/sales-order-item.entity';
import type { SalesOrder } from './entities/sales-order.entity';
import type { ItemListRow, ListedOrder, SalesOrderView } from './sales-order.repository';
import { isExpired, paymentTermsOf, remainingOf } from './sales-order.rules';
import type { GroupPlan } from './services/group.service';
import { type BoletoView, toBoletoDto } from '../collection';
import { totalsColumns } from './services/lines';

const iso = (d: Date | string | null) => (d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const qty = (v: Dec) => toJsonNumber(v, 'quantity');
const amount = (v: Dec) => toJsonNumber(v, 'amount');

/** Where a line came from (a grouped order's lines): the same on an entity's line and a listed row. */
const originsDto = (origins: LineOrigin[] | null) =>
  origins
    ? origins.map((o) => ({
        salesOrderId: encodeId('sales-order', o.salesOrderId),
        salesOrderItemId: encodeId('sales-order-item', o.salesOrderItemId),
        quantity: qty(new Dec(o.quantity)),
      }))
    : null;

export const toItemDto = (i: SalesOrderItem) => ({
  salesOrderItemId: encodeId('sales-order-item', i.id),
  lineNumber: i.lineNumber,
  productId: encodeId('product', i.productId),
  description: i.description,
  unit: i.unit,
  quantity: qty(i.quantity),
  unitPrice: toJsonNumber(i.unitPrice, 'price'),
  discount: amount(i.discount),
  total: amount(i.total),
  orderDiscountShare: amount(i.orderDiscountShare),
  fulfilledQuantity: qty(i.fulfilledQuantity),
  returnedQuantity: qty(i.returnedQuantity),
  cancelledQuantity: qty(i.cancelledQuantity),
  remainingQuantity: qty(remainingOf(i)),
  origins: originsDto(i.origins),
});

export const toTotalsDto = (
  o: Pick<SalesOrder, 'grossTotal' | 'itemsDiscount' | 'discount' | 'freight' | 'insurance' | 'otherExpenses' | 'total'>,
) => ({
  gross: amount(o.grossTotal),
  itemsDiscount: amount(o.itemsDiscount),
  items: amount(o.grossTotal.minus(o.itemsDiscount)),
  discount: amount(o.discount),
  freight: amount(o.freight),
  insurance: amount(o.insurance),
  otherExpenses: amount(o.otherExpenses),
  total: amount(o.total),
});

export const toSalesOrderDto = (v: SalesOrderView, today?: string) => {
  const o = v.order;
  return {
    id: encodeId('sales-order', o.id),
    code: o.code,
    filialId: encodeId('filial', o.filialId),
    type: o.type,
    flowMode: o.flowMode,
    status: o.status,
    customerId: encodeOptionalId('customer', o.customerId),
    customerName: v.customerName,
    sellerId: encodeOptionalId('seller', o.sellerId),
    sellerName: v.sellerName,
    alias: o.alias,
    items: v.items.map(toItemDto),
    discount: amount(o.discount),
    freight: amount(o.freight),
    insurance: amount(o.insurance),
    otherExpenses: amount(o.otherExpenses),
    finalConsumer: o.finalConsumer,
    totals: toTotalsDto(o),
    notes: o.notes,
    paymentTerms: paymentTermsOf(o.paymentTerms),
    boletoBankAccountId: encodeOptionalId('bank-account', o.boletoBankAccountId),
    validUntil: o.validUntil,
    expired: o.type === 'QUOTE' ? isExpired(o, today) : false,
    groupedIntoId: encodeOptionalId('sales-order', o.groupedIntoId),
    groupedFromIds: v.groupedFromIds.map((id) => encodeId('sales-order', id)),
    cancelReason: o.cancelReason,
    cancelledAt: iso(o.cancelledAt),
    version: o.version,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
};
export type SalesOrderDto = ReturnType<typeof toSalesOrderDto>;

/*
 * The same DTOs from a list page's rows (sales-order.repository.ts loadListed), key for key and value
 * for value: a test holds them to toSalesOrderDto over the same orders.
 */
const storedAmount = (v: unknown) => storedToJsonNumber(v, 'amount');
const storedQty = (v: unknown) => storedToJsonNumber(v, 'quantity');

const toListItemDto = (i: ItemListRow) => ({
  salesOrderItemId: encodeId('sales-order-item', i.id),
  lineNumber: i.line_number,
  productId: encodeId('product', i.product_id),
  description: i.description,
  unit: i.unit,
  quantity: storedQty(i.quantity),
  unitPrice: storedToJsonNumber(i.unit_price, 'price'),
  discount: storedAmount(i.discount),
  total: storedAmount(i.total),
  orderDiscountShare: storedAmount(i.order_discount_share),
  fulfilledQuantity: storedQty(i.fulfilled_quantity),
  returnedQuantity: storedQty(i.returned_quantity),
  cancelledQuantity: storedQty(i.cancelled_quantity),
  remainingQuantity: storedDifferenceToJsonNumber('quantity', i.quantity, i.fulfilled_quantity, i.cancelled_quantity),
  origins: originsDto(i.origins),
});

export const toSalesOrderListDto = (v: ListedOrder, today?: string): SalesOrderDto => {
  const o = v.order;
  return {
    id: encodeId('sales-order', o.id),
    code: o.code,
    filialId: encodeId('filial', o.filial_id),
    type: o.type,
    flowMode: o.flow_mode,
    status: o.status,
    customerId: encodeOptionalId('customer', o.customer_id),
    customerName: o.customer_name,
    sellerId: encodeOptionalId('seller', o.seller_id),
    sellerName: o.seller_name,
    alias: o.alias,
    items: v.items.map(toListItemDto),
    discount: storedAmount(o.discount),
    freight: storedAmount(o.freight),
    insurance: storedAmount(o.insurance),
    otherExpenses: storedAmount(o.other_expenses),
    finalConsumer: o.final_consumer === null ? null : Boolean(o.final_consumer),
    totals: {
      gross: storedAmount(o.gross_total),
      itemsDiscount: storedAmount(o.items_discount),
      items: storedDifferenceToJsonNumber('amount', o.gross_total, o.items_discount),
      discount: storedAmount(o.discount),
      freight: storedAmount(o.freight),
      insurance: storedAmount(o.insurance),
      otherExpenses: storedAmount(o.other_expenses),
      total: storedAmount(o.total),
    },
    notes: o.notes,
    paymentTerms: paymentTermsOf(o.payment_terms),
    boletoBankAccountId: encodeOptionalId('bank-account', o.boleto_bank_account_id),
    validUntil: o.valid_until,
    expired: o.type === 'QUOTE' ? isExpired({ validUntil: o.valid_until }, today) : false,
    groupedIntoId: encodeOptionalId('sales-order', o.grouped_into_id),
    groupedFromIds: v.groupedFromIds.map((id) => encodeId('sales-order', id)),
    cancelReason: o.cancel_reason,
    cancelledAt: iso(o.cancelled_at),
    version: o.version,
    createdAt: iso(o.created_at),
    updatedAt: iso(o.updated_at),
  };
};

/** Per line: ordered, fulfilled, returned, cancelled, remaining. */
export const toItemProgressDto = (i: SalesOrderItem) => ({
  salesOrderItemId: encodeId('sales-order-item', i.id),
  productId: encodeId('product', i.productId),
  description: i.description,
  unit: i.unit,
  ordered: qty(i.quantity),
  fulfilled: qty(i.fulfilledQuantity),
  returned: qty(i.returnedQuantity),
  cancelled: qty(i.cancelledQuantity),
  remaining: qty(remainingOf(i)),
});

export const toFulfillmentDto = (f: Fulfillment, items: FulfillmentItem[]) => ({
  id: encodeId('fulfillment', f.id),
  salesOrderId: encodeId('sales-order', f.salesOrderId),
  filialId: encodeId('filial', f.filialId),
  actor: f.actor,
  createdAt: iso(f.createdAt),
  items: items.map((i) => ({
    salesOrderItemId: encodeId('sales-order-item', i.salesOrderItemId),
    productId: encodeId('product', i.productId),
    quantity: qty(i.quantity),
    unitCost: toJsonNumber(i.unitCost, 'cost'),
  })),
});

/** GET :id/fulfillment. */
export const toFulfillmentViewDto = (
  order: SalesOrder,
  items: SalesOrderItem[],
  fulfillments: Fulfillment[],
  fulfillmentItems: FulfillmentItem[],
) => ({
  salesOrderId: encodeId('sales-order', order.id),
  code: order.code,
  status: order.status,
  version: order.version,
  items: items.map(toItemProgressDto),
  fulfillments: fulfillments.map((f) =>
    toFulfillmentDto(
      f,
      fulfillmentItems.filter((i) => i.fulfillmentId === f.id),
    ),
  ),
});

/** POST :id/fulfill: the new fulfillment, the boletos its billing issued, and where the order stands now. */
export const toFulfillResultDto = (
  order: SalesOrder,
  items: SalesOrderItem[],
  fulfillment: Fulfillment,
  fulfillmentItems: FulfillmentItem[],
  boletos: BoletoView[] = [],
) => ({
  fulfillment: toFulfillmentDto(fulfillment, fulfillmentItems),
  boletos: boletos.map(toBoletoDto),
  order: {
    id: encodeId('sales-order', order.id),
    code: order.code,
    status: order.status,
    version: order.version,
    items: items.map(toItemProgressDto),
  },
});

export const toCancelPreviewDto = (p: {
  canCancel: boolean;
  currentStatus: string;
  resultingStatus: string | null;
  blockingProblems: { code: string; message: string }[];
  itemsCancelled: { id: number; quantity: Dec }[];
}) => ({
  canCancel: p.canCancel,
  currentStatus: p.currentStatus,
  resultingStatus: p.resultingStatus,
  blockingProblems: p.blockingProblems,
  itemsCancelled: p.itemsCancelled.map((i) => ({ salesOrderItemId: encodeId('sales-order-item', i.id), quantity: qty(i.quantity) })),
});

/** group/preview: the merged order as it would be created, and what blocks it. */
export const toGroupPreviewDto = (plan: GroupPlan) => ({
  canGroup: plan.blockingProblems.length === 0,
  blockingProblems: plan.blockingProblems.map((p) => ({ ...p, salesOrderId: encodeOptionalId('sales-order', p.salesOrderId) })),
  warnings: plan.warnings,
  order: {
    filialId: encodeId('filial', plan.merged.filialId),
    type: 'ORDER' as const,
    customerId: encodeOptionalId('customer', plan.merged.customerId),
    sellerId: encodeOptionalId('seller', plan.merged.sellerId),
    notes: plan.merged.notes,
    discount: amount(plan.merged.discount),
    freight: amount(plan.merged.freight),
    totals: toTotalsDto(totalsColumns(plan.merged.totals)),
    items: plan.merged.priced.map((r) => ({
      lineNumber: r.lineNumber!,
      productId: encodeId('product', r.productId!),
      description: r.description!,
      unit: r.unit!,
      quantity: qty(r.quantity!),
      unitPrice: toJsonNumber(r.unitPrice!, 'price'),
      discount: amount(r.discount!),
      total: amount(r.total!),
      orderDiscountShare: amount(r.orderDiscountShare!),
      origins: (r.origins ?? []).map((o) => ({
        salesOrderId: encodeId('sales-order', o.salesOrderId),
        salesOrderItemId: encodeId('sales-order-item', o.salesOrderItemId),
        quantity: qty(new Dec(o.quantity)),
      })),
    })),
    groupedFromIds: plan.sources.map((o) => encodeId('sales-order', o.id)),
  },
});
