/*
 * Description similarity for supplier items (pure functions, no I/O).
 *
 * Supplier descriptions and our product names say the same thing in different ways: case, accents,
 * punctuation, word order, "350ML" vs "350 ml", "2LT" vs "2 L", "LT" vs "LATA", "UND" vs "UN". Both
 * sides are reduced to canonical tokens first (measures become one token in a base unit: "2 LT" →
 * "2000ML"), then ranked by a blend of a token score (soft Dice over token sets; an abbreviation
 * that is a prefix of the other word counts partly) and a character-trigram Dice score, which
 * forgives typos and abbreviations the token score misses. Scores are 0..1.
 */

import { similarityTokens } from '../../core/text/canonical-tokens';

const HAS_DIGIT = /\d/;

export { splitWords, similarityTokens } from '../../core/text/canonical-tokens';

export interface Profile {
  tokens: string[];
  tokenSet: Set<string>;
  /** Tokens that may be abbreviated: letters only, three or more. */
  words: string[];
  /** Character trigrams of the padded tokens as sorted small integers (cheaper to build and compare than strings). */
  grams: Int32Array;
}

const charCode = (c: number): number => (c === 32 ? 0 : c <= 57 ? c - 47 : c - 54); // ' ' 0, '0'-'9' 1-10, 'A'-'Z' 11-36

/** Sorted, distinct trigram codes (merge-intersected by `score`). */
function trigrams(tokens: string[]): Int32Array {
  let n = 0;
  for (const t of tokens) n += t.length;
  const out = new Int32Array(n);
  let k = 0;
  for (const t of tokens) {
    let a = 0; // padding space
    let b = charCode(t.charCodeAt(0));
    for (let i = 1; i <= t.length; i++) {
      const c = i < t.length ? charCode(t.charCodeAt(i)) : 0;
      out[k++] = a * 1369 + b * 37 + c;
      a = b;
      b = c;
    }
  }
  out.sort();
  let m = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[m++] = out[i];
  return out.subarray(0, m);
}

/** The precomputed form of a text that `score` compares (compute once per product, once per item). */
export function profile(text: string): Profile {
  const tokens = similarityTokens(text);
  return { tokens, tokenSet: new Set(tokens), words: tokens.filter((t) => t.length >= 3 && !HAS_DIGIT.test(t)), grams: trigrams(tokens) };
}

/** How well word `t` is covered by the other side: exact 1, an abbreviation (prefix, ≥ 3 letters) 0.8. */
function coverage(t: string, other: Profile): number {
  if (other.tokenSet.has(t)) return 1;
  if (t.length < 3 || HAS_DIGIT.test(t)) return 0;
  for (const o of other.words) if (o.startsWith(t) || t.startsWith(o)) return 0.8;
  return 0;
}

const TOKEN_WEIGHT = 0.65;

/** Similarity of two profiles, 0..1 (1 = same canonical tokens). */
export function score(a: Profile, b: Profile): number {
  if (!a.tokens.length || !b.tokens.length) return 0;
  let covered = 0;
  for (const t of a.tokens) covered += coverage(t, b);
  for (const t of b.tokens) covered += coverage(t, a);
  const tokenScore = covered / (a.tokens.length + b.tokens.length);
  let shared = 0;
  for (let i = 0, j = 0; i < a.grams.length && j < b.grams.length;) {
    if (a.grams[i] === b.grams[j]) {
      shared++;
      i++;
      j++;
    } else if (a.grams[i] < b.grams[j]) i++;
    else j++;
  }
  const gramScore = (2 * shared) / (a.grams.length + b.grams.length);
  return Math.round((TOKEN_WEIGHT * tokenScore + (1 - TOKEN_WEIGHT) * gramScore) * 10_000) / 10_000;
}

export const similarity = (a: string, b: string): number => score(profile(a), profile(b));

export interface Ranked<T> {
  candidate: T;
  score: number;
}

/**
 * The best `limit` candidates for `query` with a score of at least `minScore`, best first; equal
 * scores keep the candidates' given order, so results are deterministic.
 */
export function rank<T>(query: Profile, candidates: T[], profileOf: (c: T) => Profile, limit = 5, minScore = 0): Ranked<T>[] {
  const scored: Ranked<T>[] = [];
  for (const candidate of candidates) {
    const s = score(query, profileOf(candidate));
    if (s >= minScore && s > 0) scored.push({ candidate, score: s });
  }
  return scored
    .map((r, i) => ({ r, i }))
    .sort((x, y) => y.r.score - x.r.score || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.r);
}
