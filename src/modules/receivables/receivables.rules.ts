import { addCalendarDays } from '../../core/business-date';
import { Dec, round } from '../../core/decimal';
import type { ReceivableStatus } from './entities/receivable.entity';

/*
 * Pure rules of receivables (SPEC §13): installments, the acquirer's fee, and the status that what is
 * settled means. No database here: the billing paths and the property test share them.
 */

const CENT = new Dec('0.01');

/**
 * Splits `total` into one installment per entry of `days` (days from `issueDate`): equal shares
 * rounded down to the cent, the remainder cent(s) on the last one (100.00 in 3 → 33.33, 33.33, 33.34).
 */
export function installments(total: Dec, issueDate: string, days: number[]): { number: number; dueDate: string; amount: Dec }[] {
  const n = days.length;
  const share = total.div(n).toDecimalPlaces(2, Dec.ROUND_DOWN);
  return days.map((d, i) => ({
    number: i + 1,
    dueDate: addCalendarDays(issueDate, d),
    amount: i === n - 1 ? total.minus(share.times(n - 1)) : share,
  }));
}

/** The acquirer's fee on a card payment: percent of the gross, to the cent (half up). */
export const feeOf = (gross: Dec, feePercent: Dec): Dec => round(gross.times(feePercent).div(100), 'amount');

/**
 * The status that `received` and `credited` (returns) of `amount` mean: something open → OPEN or
 * PARTIALLY_RECEIVED; nothing open → RECEIVED, or CANCELLED when returns credited all of it.
 */
export function statusFor(amount: Dec, received: Dec, credited: Dec): ReceivableStatus {
  const open = amount.minus(received).minus(credited);
  if (open.gt(0)) return received.gt(0) ? 'PARTIALLY_RECEIVED' : 'OPEN';
  return received.gt(0) ? 'RECEIVED' : 'CANCELLED';
}

export const openAmountOf = (r: { amount: Dec; receivedAmount: Dec; creditedAmount: Dec; status: ReceivableStatus }): Dec =>
  r.status === 'CANCELLED' ? new Dec(0) : r.amount.minus(r.receivedAmount).minus(r.creditedAmount);

export { CENT };
