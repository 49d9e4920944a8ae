import { Decimal } from 'decimal.js';

// One configured Decimal for the whole service: 40 significant digits, commercial rounding.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

/** Scales fixed by the spec: amounts 2, quantities 4, unit prices/costs 10, conversion factors 6. */
export const SCALE = { amount: 2, quantity: 4, price: 10, cost: 10, factor: 6, percent: 4 } as const;
export type ScaleName = keyof typeof SCALE;

/**
 * The column each scale name is stored in: DECIMAL(precision, scale). The column helpers build their
 * columns from it and `decimal()` input bounds come from it, so an accepted value always fits.
 */
export const DECIMAL_COLUMN: Record<ScaleName, { precision: number; scale: number }> = {
  amount: { precision: 15, scale: SCALE.amount },
  quantity: { precision: 18, scale: SCALE.quantity },
  price: { precision: 21, scale: SCALE.price },
  cost: { precision: 21, scale: SCALE.cost },
  factor: { precision: 15, scale: SCALE.factor },
  percent: { precision: 7, scale: SCALE.percent },
};

/** The largest value DECIMAL(precision, scale) holds: 10^(precision-scale) - 10^-scale. */
export const columnMax = (precision: number, scale: number): Dec => new Dec(10).pow(precision - scale).minus(new Dec(10).pow(-scale));

export type DecimalInput = Dec | string | number;

export function dec(value: DecimalInput | null | undefined): Dec {
  if (value === null || value === undefined || value === '') return new Dec(0);
  return value instanceof Dec ? value : new Dec(value);
}

export function round(value: DecimalInput, scale: ScaleName | number): Dec {
  const places = typeof scale === 'number' ? scale : SCALE[scale];
  return dec(value).toDecimalPlaces(places, Dec.ROUND_HALF_UP);
}

/** Fixed-point string for storage and equality checks. */
export function toFixed(value: DecimalInput, scale: ScaleName | number): string {
  const places = typeof scale === 'number' ? scale : SCALE[scale];
  return dec(value).toFixed(places, Dec.ROUND_HALF_UP);
}

/** JSON number rounded to its scale (the spec's wire format). */
export function toJsonNumber(value: DecimalInput | null | undefined, scale: ScaleName | number): number | null {
  if (value === null || value === undefined) return null;
  return Number(toFixed(value, scale));
}

export function sum(values: Iterable<DecimalInput>): Dec {
  let total = new Dec(0);
  for (const v of values) total = total.plus(dec(v));
  return total;
}

/**
 * Splits `total` across `weights` proportionally, rounded to `scale`, with the rounding residue on the
 * last share so the shares add up to `total` exactly (never below zero for a non-negative total).
 * Zero total weight → equal shares.
 */
export function allocate(total: DecimalInput, weights: DecimalInput[], scale: ScaleName | number = 'amount'): Dec[] {
  if (weights.length === 0) return [];
  const amount = dec(total);
  const w = weights.map(dec);
  const weightSum = sum(w);
  const shares: Dec[] = [];
  let allocated = new Dec(0);
  for (let i = 0; i < w.length; i++) {
    if (i === w.length - 1) {
      shares.push(amount.minus(allocated));
      break;
    }
    let share = weightSum.isZero() ? round(amount.div(w.length), scale) : round(amount.times(w[i]).div(weightSum), scale);
    // Rounding up many tiny shares could overshoot the total and leave the last share negative: never
    // hand out more than what remains.
    const remaining = amount.minus(allocated);
    if (amount.gte(0) && share.gt(remaining)) share = remaining;
    shares.push(share);
    allocated = allocated.plus(share);
  }
  return shares;
}
