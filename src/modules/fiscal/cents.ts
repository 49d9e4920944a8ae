import type { Dec } from '../../core/decimal';
import { scaledOf } from '../../core/decimal-scaled';

/*
 * Exact arithmetic of the tax engine in scaled integers (issue 51): amounts in cents, rates in 10^-4
 * percent, quantities in 10^-4, unit prices in 10^-10, as JS safe integers (BigInt where a product
 * exceeds 2^53). Every rounding is the engine's: half-up (away from zero) of the exact quotient, which is
 * what decimal.js gives for these magnitudes (its 40 significant digits cannot move a value across a
 * half at 2, 4 or 10 places: the exact quotient of integers below 10^20 is never that close to one).
 * Whatever does not fit — more places than the scale, a result past 2^53 — throws NOT_IN_CENTS, and the
 * engine computes the document with decimal.js instead (engine.ts), so no figure depends on this path.
 */

/** Thrown when a value or result is not exact in safe integers: the caller falls back to decimal.js (one object, built once). */
export const NOT_IN_CENTS = new Error('not exact in safe integers');

const MAX = Number.MAX_SAFE_INTEGER;

/** n / d rounded half-up (away from zero), d > 0, both safe integers. */
export function divRound(n: number, d: number): number {
  const a = n < 0 ? -n : n;
  let q = Math.floor(a / d);
  let r = a - q * d;
  while (r >= d) {
    q++;
    r -= d;
  }
  while (r < 0) {
    q--;
    r += d;
  }
  if (r * 2 >= d) q++;
  return n < 0 ? -q : q;
}

/** a × b / d rounded half-up (away from zero), d > 0: in doubles while a × b is a safe integer, else BigInt. */
export function mulDivRound(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= MAX && p >= -MAX) return divRound(p, d);
  const bp = BigInt(a) * BigInt(b);
  const neg = bp < 0n;
  const abs = neg ? -bp : bp;
  const bd = BigInt(d);
  let q = abs / bd;
  if ((abs - q * bd) * 2n >= bd) q++;
  const v = Number(q);
  if (v > MAX) throw NOT_IN_CENTS;
  return neg ? -v : v;
}

/** The tax of `base` cents at `rate4` (percent × 10^4), rounded half-up to the cent: round(base × rate / 100, 2). */
export const taxOf = (base: number, rate4: number): number => mulDivRound(base, rate4, 1_000_000);

const rates4 = new WeakMap<Dec, number>();
/** A rate (percent) × 10^4 as an integer, once per rate object; more than 4 places → NOT_IN_CENTS. */
export function rate4Of(rate: Dec): number {
  let v = rates4.get(rate);
  if (v === undefined) {
    v = scaledOf(rate, 4);
    if (v === undefined || Math.abs(v) > 1e9) throw NOT_IN_CENTS;
    rates4.set(rate, v);
  }
  return v;
}

const factors6 = new WeakMap<Dec, number>();
/** A conversion factor × 10^6 (its column's scale), once per factor object. */
export function factor6Of(factor: Dec): number {
  let v = factors6.get(factor);
  if (v === undefined) {
    v = scaledOf(factor, 6);
    if (v === undefined || Math.abs(v) > 1e12) throw NOT_IN_CENTS;
    factors6.set(factor, v);
  }
  return v;
}

/**
 * `allocate` (core/decimal.ts) in cents: `total` split by `weights`, each share rounded half-up, the
 * residue on the last share with a weight, no share above what remains.
 */
export function allocateCents(total: number, weights: number[]): number[] {
  const n = weights.length;
  if (n === 0) return [];
  let weightSum = 0;
  for (const w of weights) weightSum += w;
  if (weightSum > MAX) throw NOT_IN_CENTS;
  let last = n - 1;
  if (weightSum !== 0) while (last > 0 && weights[last] === 0) last--;
  const shares: number[] = [];
  let allocated = 0;
  for (let i = 0; i < n; i++) {
    if (i === last) {
      shares.push(total - allocated);
      allocated = total;
      continue;
    }
    if (i > last) {
      shares.push(0);
      continue;
    }
    let share = weightSum === 0 ? divRound(total, n) : mulDivRound(total, weights[i], weightSum);
    const remaining = total - allocated;
    if (total >= 0 && share > remaining) share = remaining;
    shares.push(share);
    allocated += share;
  }
  return shares;
}

/** `allocateWithin` (core/decimal.ts) in cents: no share above its weight, the overflow moved to earlier lines with room. */
export function allocateWithinCents(total: number, weights: number[]): number[] {
  const shares = allocateCents(total, weights);
  let weightSum = 0;
  for (const w of weights) weightSum += w;
  if (total > weightSum) return shares;
  let overflow = 0;
  for (let i = 0; i < shares.length; i++) {
    if (shares[i] > weights[i]) {
      overflow += shares[i] - weights[i];
      shares[i] = weights[i];
    }
  }
  for (let i = shares.length - 1; i >= 0 && overflow > 0; i--) {
    const take = Math.min(overflow, weights[i] - shares[i]);
    if (take <= 0) continue;
    shares[i] += take;
    overflow -= take;
  }
  return shares;
}
