import { allocateWithin, Dec, round, sum } from '../../core/decimal';
import { BusinessRuleError, FieldError } from '../../core/errors';

const ZERO = new Dec(0);

export interface LineAmounts {
  quantity: Dec;
  unitPrice: Dec;
  discount: Dec;
}

export interface PricedLine {
  gross: Dec;
  discount: Dec;
  total: Dec;
  orderDiscountShare: Dec;
}

export interface OrderTotals {
  gross: Dec;
  itemsDiscount: Dec;
  /** Σ line totals (after line discounts). */
  items: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
  total: Dec;
}

/** What the order charges beside its goods (vFrete, vSeg, vOutro), apportioned to the items by the tax engine. */
export interface OrderCharges {
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
}

/**
 * The one computation of an order's amounts (create, edit, group): each line's gross to the cent, its
 * discount, its total, and its share of the order discount allocated by line total so the shares add
 * up to the order discount exactly. A discount above what it applies to → 422 with the field paths.
 */
export function priceOrder(
  lines: LineAmounts[],
  discount: Dec,
  charges: OrderCharges,
  paths: { items?: string; discount?: string } = {},
): { lines: PricedLine[]; totals: OrderTotals } {
  const problems: FieldError[] = [];
  const priced = lines.map((l, i) => {
    const gross = round(l.quantity.times(l.unitPrice), 'amount');
    const lineDiscount = round(l.discount, 'amount');
    if (lineDiscount.gt(gross)) {
      problems.push({
        path: `${paths.items ?? 'items'}[${i}].discount`,
        message: `discount must not exceed quantity × unitPrice (${gross.toFixed(2)})`,
      });
    }
    return { gross, discount: lineDiscount, total: gross.minus(lineDiscount) };
  });
  const items = sum(priced.map((l) => l.total));
  const orderDiscount = round(discount, 'amount');
  if (orderDiscount.gt(items)) {
    problems.push({ path: paths.discount ?? 'discount', message: `discount must not exceed the items total (${items.toFixed(2)})` });
  }
  if (problems.length) {
    throw new BusinessRuleError('DISCOUNT_EXCEEDS_TOTAL', 'A discount exceeds the amount it applies to', { errors: problems });
  }
  const shares = allocateWithin(
    orderDiscount,
    priced.map((l) => l.total),
    'amount',
  );
  const totals: OrderTotals = {
    gross: sum(priced.map((l) => l.gross)),
    itemsDiscount: sum(priced.map((l) => l.discount)),
    items,
    discount: orderDiscount,
    freight: round(charges.freight, 'amount'),
    insurance: round(charges.insurance, 'amount'),
    otherExpenses: round(charges.otherExpenses, 'amount'),
    total: ZERO,
  };
  totals.total = items.minus(orderDiscount).plus(totals.freight).plus(totals.insurance).plus(totals.otherExpenses);
  return { lines: priced.map((l, i) => ({ ...l, orderDiscountShare: shares[i] ?? new Dec(0) })), totals };
}
