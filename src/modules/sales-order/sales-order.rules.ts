import { Dec } from '../../core/decimal';
import type { SalesOrderItem } from './entities/sales-order-item.entity';
import type { SalesOrder } from './entities/sales-order.entity';

/*
 * Small rules shared by the use cases. Calendar dates (quote validity, list date filters) are
 * Brasília dates: Brazil has had no daylight saving time since 2019, so that is UTC−03:00 all year.
 */
const BRASILIA_OFFSET_HOURS = 3;
export const QUOTE_VALIDITY_DAYS = 30;

export const remainingOf = (i: Pick<SalesOrderItem, 'quantity' | 'fulfilledQuantity' | 'cancelledQuantity'>): Dec =>
  i.quantity.minus(i.fulfilledQuantity).minus(i.cancelledQuantity);

export const anythingFulfilled = (items: Pick<SalesOrderItem, 'fulfilledQuantity'>[]): boolean => items.some((i) => i.fulfilledQuantity.gt(0));

/** Today's date in Brasília, 'YYYY-MM-DD'. */
export function businessToday(now = new Date()): string {
  return new Date(now.getTime() - BRASILIA_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A quote is valid through its `validUntil` day and expired from the next day on. */
export const isExpired = (o: Pick<SalesOrder, 'validUntil'>, today = businessToday()): boolean => o.validUntil !== null && o.validUntil < today;

/** The UTC instant a Brasília calendar day starts, as the 'YYYY-MM-DD HH:MM:SS.mmm' both engines compare. */
export function startOfBusinessDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + BRASILIA_OFFSET_HOURS * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
}
