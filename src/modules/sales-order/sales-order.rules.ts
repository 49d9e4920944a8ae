import { businessToday } from '../../core/business-date';
import { Dec } from '../../core/decimal';
import type { SalesOrderItem } from './entities/sales-order-item.entity';
import type { SalesOrder } from './entities/sales-order.entity';

/*
 * Small rules shared by the use cases. Calendar dates (quote validity, list date filters) are
 * business dates (core/business-date.ts).
 */
export const QUOTE_VALIDITY_DAYS = 30;

export const remainingOf = (i: Pick<SalesOrderItem, 'quantity' | 'fulfilledQuantity' | 'cancelledQuantity'>): Dec =>
  i.quantity.minus(i.fulfilledQuantity).minus(i.cancelledQuantity);

export const anythingFulfilled = (items: Pick<SalesOrderItem, 'fulfilledQuantity'>[]): boolean => items.some((i) => i.fulfilledQuantity.gt(0));

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A quote is valid through its `validUntil` day and expired from the next day on. */
export const isExpired = (o: Pick<SalesOrder, 'validUntil'>, today = businessToday()): boolean => o.validUntil !== null && o.validUntil < today;
