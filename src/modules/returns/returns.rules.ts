import { Dec, round } from '../../core/decimal';
import { netValueOf } from '../sales-order';

export { netValueOf };

/**
 * Refund of returning `quantity` units when `alreadyReturned` went back before: the difference of the
 * cumulative values, so partial returns always add up to the line's net value to the cent.
 */
export function refundFor(line: { quantity: Dec; total: Dec; orderDiscountShare: Dec }, alreadyReturned: Dec, quantity: Dec): Dec {
  return netValueOf(line, alreadyReturned.plus(quantity)).minus(netValueOf(line, alreadyReturned));
}

/** Quantity-weighted cost at which a line's goods left stock over its fulfillments. */
export function departureCost(fulfilled: { quantity: Dec; unitCost: Dec }[]): Dec {
  const qty = fulfilled.reduce((a, f) => a.plus(f.quantity), new Dec(0));
  if (qty.isZero()) return new Dec(0);
  return round(fulfilled.reduce((a, f) => a.plus(f.quantity.times(f.unitCost)), new Dec(0)).div(qty), 'cost');
}
