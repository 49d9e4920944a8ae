import { Dec, dec, round } from '../../core/decimal';

/**
 * What `units` of a line are worth net of every discount taken off the line (its own and its share of
 * the order's), proportionally, to the cent: the whole line is worth exactly `total − share`.
 */
export function netValueOf(line: { quantity: Dec; total: Dec; orderDiscountShare: Dec }, units: Dec): Dec {
  const net = dec(line.total).minus(dec(line.orderDiscountShare));
  if (units.gte(line.quantity)) return net;
  return round(net.times(units).div(line.quantity), 'amount');
}

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
