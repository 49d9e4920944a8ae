import { Dec, type DecimalInput } from './decimal';

/*
 * Exact decimals as scaled safe integers (value × 10^places), for hot paths that would otherwise build a
 * decimal.js object per operation (the tax engine: issue 51). Two conversions at the edges, both exact:
 *
 *   scaledOf(value, places)   a Dec, numeric string or number → the integer, or undefined when the value has
 *                             more than `places` decimal places or does not fit in a safe integer
 *   decOfScaled(n, places)    the integer → the Dec, built as decimal.js builds it (same digits, exponent, sign)
 *
 * Both read or write decimal.js's representation (`d`: base-1e7 words, most significant first, no trailing
 * zero word; `e`: the base-10 exponent of the first digit; `s`: the sign) instead of going through its text:
 * a library internal, registered in docs/decisions/library-internals.md and held against decimal.js's own
 * parsing and printing by tests/core/decimal-scaled.test.ts.
 */

const LOG_BASE = 7;
const BASE = 1e7;
const POW10: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

interface DecimalParts {
  s: number;
  e: number;
  d: number[] | null;
}
const partsOf = (x: Dec) => x as unknown as DecimalParts;
const DEC_PROTOTYPE = Dec.prototype as object;

/** Digits of a positive safe integer. */
function digitsOf(a: number): number {
  let n = 1;
  while (n < 16 && a >= POW10[n]) n++;
  return n;
}

/** The Dec of n × 10^-places (n a safe integer), identical to `new Dec(text of that value)`. */
export function decOfScaled(n: number, places: number): Dec {
  if (n === 0) return new Dec(0);
  let a = n < 0 ? -n : n;
  let p = places;
  while (a % 10 === 0) {
    a /= 10;
    p--;
  }
  const e = digitsOf(a) - 1 - p;
  // The words are the base-1e7 digits of a × 10^r, r padding the last word to a whole word of fraction.
  const r = (LOG_BASE - (((p % LOG_BASE) + LOG_BASE) % LOG_BASE)) % LOG_BASE;
  const m = POW10[r];
  const words: number[] = [];
  let rest = a;
  let carry = 0;
  while (rest > 0 || carry > 0) {
    const low = rest % BASE;
    rest = (rest - low) / BASE;
    const v = low * m + carry;
    const word = v % BASE;
    carry = (v - word) / BASE;
    words.push(word);
  }
  words.reverse();
  // The own properties decimal.js's constructor gives an instance, in its order (one hidden class for all).
  const x = Object.create(DEC_PROTOTYPE) as Dec & DecimalParts & { constructor: typeof Dec };
  x.constructor = Dec;
  x.s = n < 0 ? -1 : 1;
  x.e = e;
  x.d = words;
  return x;
}

/** A Dec's value × 10^places as a safe integer, or undefined (more places, too large, not finite). */
function scaledOfDec(x: Dec, places: number): number | undefined {
  const { s, e, d } = partsOf(x);
  if (!d) return undefined;
  if (d.length === 1 && d[0] === 0) return 0;
  // d[0] holds the digits down to 10^(e - digits(d[0]) + 1); each next word 7 places lower.
  const first = digitsOf(d[0]);
  const lastUnit = e - first + 1 - LOG_BASE * (d.length - 1);
  // Trailing zeros of the last word move its unit up.
  let last = d[d.length - 1];
  let zeros = 0;
  while (last % 10 === 0) {
    last /= 10;
    zeros++;
  }
  const unit = lastUnit + zeros;
  if (unit < -places || e + places > 15) return undefined;
  let w = 0;
  for (let i = 0; i < d.length - 1; i++) w = w * BASE + d[i];
  w = w * POW10[LOG_BASE - zeros] + last;
  const v = w * POW10[unit + places];
  if (!Number.isSafeInteger(v)) return undefined;
  return s < 0 ? -v : v;
}

/** /^-?\d+(\.\d+)?$/ of at most `places` decimals → the scaled integer; anything else undefined. */
function scaledOfText(t: string, places: number): number | undefined {
  const n = t.length;
  let i = 0;
  let neg = false;
  if (t.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let v = 0;
  const start = i;
  for (; i < n; i++) {
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
  }
  if (i === start) return undefined;
  let frac = 0;
  if (i < n) {
    if (t.charCodeAt(i) !== 46 || i === n - 1) return undefined;
    for (i++; i < n; i++) {
      const c = t.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return undefined;
      if (frac === places) {
        if (c !== 0) return undefined;
        continue;
      }
      v = v * 10 + c;
      frac++;
    }
  }
  v *= POW10[places - frac];
  if (!Number.isSafeInteger(v)) return undefined;
  return neg && v !== 0 ? -v : v;
}

/** `value` × 10^places exactly as a safe integer, or undefined when it cannot be (see the module's comment). */
export function scaledOf(value: DecimalInput | null | undefined, places: number): number | undefined {
  if (value === null || value === undefined || value === '') return 0;
  if (typeof value === 'string') return scaledOfText(value, places);
  if (typeof value === 'number') return Number.isFinite(value) ? scaledOfText(String(value), places) : undefined;
  return value instanceof Dec ? scaledOfDec(value, places) : undefined;
}

/**
 * `toJsonNumber`'s value for a Dec that already has at most `places` decimals and fits in a safe integer
 * scaled by them: the scaled integer divided by 10^places is the correctly rounded double of the exact
 * decimal, as `Number` of its text is. undefined → the caller rounds with decimal.js.
 */
export function jsonNumberOfDec(x: Dec, places: number): number | undefined {
  const v = scaledOfDec(x, places);
  if (v === undefined) return undefined;
  return v === 0 ? 0 : v / POW10[places];
}
