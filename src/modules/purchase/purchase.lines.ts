import { Dec, round, sum } from '../../core/decimal';
import type { PurchaseOrderItem } from './entities/purchase-order-item.entity';
import type { PurchaseOrderStatus } from './entities/purchase-order.entity';

/*
 * The arithmetic of purchase-order lines, pure: totals, open quantities, net prices, and the status
 * the received quantities put an order in. Create, PATCH, receipts and their previews all use these.
 */

const ZERO = new Dec(0);

type Quantities = Pick<PurchaseOrderItem, 'quantity' | 'receivedQuantity' | 'cancelledQuantity'>;

/** quantity − received − cancelled, never below zero (an over-receipt leaves nothing open). */
export const openQuantityOf = (i: Quantities): Dec => Dec.max(ZERO, i.quantity.minus(i.receivedQuantity).minus(i.cancelledQuantity));

export const isLineOpen = (i: Quantities): boolean => openQuantityOf(i).gt(0);

/** Price per unit net of the line discount: what the invoice's net price is compared with. */
export const netUnitPrice = (i: Pick<PurchaseOrderItem, 'quantity' | 'total'>): Dec => (i.quantity.gt(0) ? i.total.div(i.quantity) : ZERO);

export interface PricedLine {
  quantity: Dec;
  unitPrice: Dec;
  discount: Dec;
  total: Dec;
}

/** round(quantity × unitPrice, 2) − discount (a discount above the line's value is refused by the caller). */
export function priceLine(quantity: Dec, unitPrice: Dec, discount: Dec): PricedLine {
  const q = round(quantity, 'quantity');
  const p = round(unitPrice, 'price');
  const d = round(discount, 'amount');
  return { quantity: q, unitPrice: p, discount: d, total: round(q.times(p), 'amount').minus(d) };
}

export function orderTotals(lines: PricedLine[]): { totalProducts: Dec; totalDiscount: Dec; total: Dec } {
  const totalDiscount = sum(lines.map((l) => l.discount));
  const total = sum(lines.map((l) => l.total));
  return { totalProducts: total.plus(totalDiscount), totalDiscount, total };
}

/**
 * The status received quantities put an approved order in: nothing received → APPROVED, every line
 * done (received + cancelled ≥ ordered) → RECEIVED, else PARTIALLY_RECEIVED. CLOSED stays CLOSED.
 */
export function receivingStatus(current: PurchaseOrderStatus, items: Quantities[]): PurchaseOrderStatus {
  if (current === 'CLOSED') return 'CLOSED';
  if (items.every((i) => i.receivedQuantity.isZero())) return 'APPROVED';
  return items.some(isLineOpen) ? 'PARTIALLY_RECEIVED' : 'RECEIVED';
}
