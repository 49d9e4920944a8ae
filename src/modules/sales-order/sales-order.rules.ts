import { businessToday } from '../../core/business-date';
import { Dec, dec, round } from '../../core/decimal';
import type { SalesOrderItem } from './entities/sales-order-item.entity';
import type { SalesOrder } from './entities/sales-order.entity';

/*
 * Small rules shared by the use cases. Calendar dates (quote validity, list date filters) are
 * business dates (core/business-date.ts).
 */
export const QUOTE_VALIDITY_DAYS = 30;

export const remainingOf = (i: Pick<SalesOrderItem, 'quantity' | 'fulfilledQuantity' | 'cancelledQuantity'>): Dec =>
  i.quantity.minus(i.fulfilledQuantity).minus(i.cancelledQuantity);

export const anythingFulfilled = (items: Pick<SalesOrderItem, 'fulfilledQuantity'>[]): boolean =>
  items.some((i) => i.fulfilledQuantity.gt(0));

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A quote is valid through its `validUntil` day and expired from the next day on. */
export const isExpired = (o: Pick<SalesOrder, 'validUntil'>, today = businessToday()): boolean =>
  o.validUntil !== null && o.validUntil < today;

/** Payment terms as the API carries them. */
export interface PaymentTerms {
  installmentDays: number[];
}

/** The column's form of payment terms: "30/60/90" (null: none, one installment on billing). */
export const paymentTermsColumn = (terms: PaymentTerms | null | undefined): string | null =>
  terms ? terms.installmentDays.join('/') : null;

/** Installment days of the stored terms; [0] (due on billing) when the order has none. */
export const installmentDaysOf = (column: string | null): number[] => (column ? column.split('/').map(Number) : [0]);

export const paymentTermsOf = (column: string | null): PaymentTerms | null =>
  column ? { installmentDays: installmentDaysOf(column) } : null;

/**
 * What `units` of a line are worth net of every discount taken off the line (its own and its share of
 * the order's), proportionally, to the cent: the whole line is worth exactly `total − share`. Billing
 * (a fulfilment's value) and refunds (a return's) take differences of it, so they add up to the cent.
 */
export function netValueOf(line: { quantity: Dec; total: Dec; orderDiscountShare: Dec }, units: Dec): Dec {
  const net = dec(line.total).minus(dec(line.orderDiscountShare));
  if (units.gte(line.quantity)) return net;
  return round(net.times(units).div(line.quantity), 'amount');
}
