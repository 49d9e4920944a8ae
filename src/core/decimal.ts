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
 * last share that has a weight so the shares add up to `total` exactly (never below zero for a
 * non-negative total; a zero weight gets zero).
 * Zero total weight → equal shares.
 */
export function allocate(total: DecimalInput, weights: DecimalInput[], scale: ScaleName | number = 'amount'): Dec[] {
  if (weights.length === 0) return [];
  const amount = dec(total);
  const w = weights.map(dec);
  const weightSum = sum(w);
  const shares: Dec[] = [];
  let allocated = new Dec(0);
  // The residue goes to the last share that has a weight: a zero-weight share stays zero.
  let last = w.length - 1;
  if (!weightSum.isZero()) while (last > 0 && w[last].isZero()) last--;
  for (let i = 0; i < w.length; i++) {
    if (i === last) {
      shares.push(amount.minus(allocated));
      allocated = amount;
      continue;
    }
    if (i > last) {
      shares.push(new Dec(0));
      continue;
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

/**
 * `allocate` for amounts taken out of the weights themselves (a header discount over the lines' net
 * values): no share exceeds its weight. Rounding residue that would push a line past its weight (many
 * shares rounded down, the residue on a small last line) moves to the lines before it that still have
 * room, last first, so the shares still add up to `total`. A total above the weights' sum cannot fit and
 * is returned as `allocate` splits it (the caller reports it).
 */
export function allocateWithin(total: DecimalInput, weights: DecimalInput[], scale: ScaleName | number = 'amount'): Dec[] {
  const shares = allocate(total, weights, scale);
  const w = weights.map(dec);
  if (dec(total).gt(sum(w))) return shares;
  let overflow = new Dec(0);
  for (let i = 0; i < shares.length; i++) {
    if (shares[i].gt(w[i])) {
      overflow = overflow.plus(shares[i].minus(w[i]));
      shares[i] = w[i];
    }
  }
  for (let i = shares.length - 1; i >= 0 && overflow.gt(0); i--) {
    const take = Dec.min(overflow, w[i].minus(shares[i]));
    if (take.lte(0)) continue;
    shares[i] = shares[i].plus(take);
    overflow = overflow.minus(take);
  }
  return shares;
}

/*
 * `toJsonNumber` of decimals as the database driver gives them (fixed-point strings), for hot
 * mappers: most such values already have at most the scale's places, and then rounding changes
 * nothing and the number is `Number` of the text itself — no decimal.js. Anything else (more places,
 * exponents, numbers) takes `toJsonNumber`.
 */
/** Up to 15 digits in all: the value times 10^places is a safe integer. */
const scaledUpTo: RegExp[] = [];
const scaledPattern = (places: number) => (scaledUpTo[places] ??= new RegExp(`^(-?)(\\d{1,${15 - places}})(?:\\.(\\d{1,${places}}))?$`));

/** /^-?\d+(?:\.\d{1,places})?$/ by hand: a list page asks it some 700 times. */
function isFixedPointUpTo(s: string, places: number): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const intStart = i;
  for (let c = s.charCodeAt(i); i < n && c >= 48 && c <= 57; c = s.charCodeAt(++i));
  if (i === intStart) return false;
  if (i === n) return true;
  if (s.charCodeAt(i) !== 46) return false;
  const fracStart = ++i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return n - fracStart >= 1 && n - fracStart <= places;
}

/** `toJsonNumber(value, scale)` of a stored decimal. */
export function storedToJsonNumber(value: unknown, scale: ScaleName): number | null {
  if (typeof value === 'string' && isFixedPointUpTo(value, SCALE[scale])) return Number(value);
  return toJsonNumber(value as DecimalInput | null | undefined, scale);
}

/** The stored decimal times 10^places as an exact (safe) integer, or undefined when it is not that simple. */
function scaledInteger(value: unknown, places: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = scaledPattern(places).exec(value);
  if (!m) return undefined;
  const n = Number(m[2]) * 10 ** places + (m[3] ? Number(m[3].padEnd(places, '0')) : 0);
  return m[1] ? -n : n;
}

/**
 * `toJsonNumber(a − b − c…, scale)` of stored decimals. In integers of 10^-places when every operand
 * fits (exact: each is below 10^15, the result below 2^53), and the division by 10^places is the
 * correctly rounded double of the exact decimal, as `Number` of its text is; else decimal.js.
 */
export function storedDifferenceToJsonNumber(scale: ScaleName, from: unknown, ...minus: unknown[]): number | null {
  const places = SCALE[scale];
  let result = scaledInteger(from, places);
  for (let i = 0; result !== undefined && i < minus.length; i++) {
    const m = scaledInteger(minus[i], places);
    result = m === undefined ? undefined : result - m;
  }
  if (result !== undefined) return result / 10 ** places;
  return toJsonNumber(
    minus.reduce<Dec>((acc, v) => acc.minus(dec(v as DecimalInput)), dec(from as DecimalInput)),
    scale,
  );
}
