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

/** Measure units: canonical unit and the power of ten to it (volumes to ML, masses to G). */
const MEASURES: Record<string, { unit: string; shift: number }> = {
  ML: { unit: 'ML', shift: 0 },
  MLS: { unit: 'ML', shift: 0 },
  CL: { unit: 'ML', shift: 1 },
  L: { unit: 'ML', shift: 3 },
  LT: { unit: 'ML', shift: 3 },
  LTS: { unit: 'ML', shift: 3 },
  LITRO: { unit: 'ML', shift: 3 },
  LITROS: { unit: 'ML', shift: 3 },
  G: { unit: 'G', shift: 0 },
  GR: { unit: 'G', shift: 0 },
  GRS: { unit: 'G', shift: 0 },
  GRAMA: { unit: 'G', shift: 0 },
  GRAMAS: { unit: 'G', shift: 0 },
  KG: { unit: 'G', shift: 3 },
  KGS: { unit: 'G', shift: 3 },
  KILO: { unit: 'G', shift: 3 },
  KILOS: { unit: 'G', shift: 3 },
  QUILO: { unit: 'G', shift: 3 },
  MG: { unit: 'MG', shift: 0 },
  M: { unit: 'M', shift: 0 },
  MT: { unit: 'M', shift: 0 },
  MTS: { unit: 'M', shift: 0 },
  METRO: { unit: 'M', shift: 0 },
  METROS: { unit: 'M', shift: 0 },
  CM: { unit: 'CM', shift: 0 },
  MM: { unit: 'MM', shift: 0 },
};

/** Packaging and unit words written many ways (a standalone "LT" is a can; after a number it is litres). */
const SYNONYMS: Record<string, string> = {
  LT: 'LATA',
  LTA: 'LATA',
  LATINHA: 'LATA',
  UND: 'UN',
  UNID: 'UN',
  UNIDADE: 'UN',
  UNIDADES: 'UN',
  UNI: 'UN',
  UNS: 'UN',
  CXA: 'CX',
  CAIXA: 'CX',
  CAIXAS: 'CX',
  PACOTE: 'PCT',
  PACOTES: 'PCT',
  PAC: 'PCT',
  GF: 'GARRAFA',
  GFA: 'GARRAFA',
  GARRAFAS: 'GARRAFA',
  FD: 'FARDO',
  FDO: 'FARDO',
  FARDOS: 'FARDO',
  DUZIA: 'DZ',
  DUZIAS: 'DZ',
  SC: 'SACO',
  SACOS: 'SACO',
  FR: 'FRASCO',
  FRS: 'FRASCO',
  FRASCOS: 'FRASCO',
  PT: 'POTE',
  POTES: 'POTE',
  PCTE: 'PCT',
  // "C/GAS" and "S/GAS" differ in one letter and mean opposite things
  C: 'COM',
  S: 'SEM',
};

/** Words that carry no meaning for matching. */
const STOPWORDS = new Set(['DE', 'DA', 'DO', 'DAS', 'DOS', 'E', 'PARA', 'EM', 'NA', 'NO', 'P', 'X', 'A', 'O']);

const NUMBER = /^\d+(\.\d+)?$/;
const HAS_DIGIT = /\d/;

/** "1.5" shifted 3 places → "1500": exact decimal-point arithmetic on the digits (no floats). */
function shiftDecimal(value: string, places: number): string {
  const [int, frac = ''] = value.split('.');
  const digits = int + frac.padEnd(places, '0');
  const point = int.length + places;
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point).replace(/0+$/, '');
  return rest ? `${whole}P${rest}` : whole;
}

function canonicalMeasure(value: string, unit: string): string {
  const m = MEASURES[unit];
  return `${shiftDecimal(value, m.shift)}${m.unit}`;
}

/**
 * Upper case, accents and punctuation removed, decimal commas kept inside numbers ("1,5L"), numbers
 * split from letters ("350ML" → "350 ML"); the raw words every other step starts from.
 */
export function splitWords(text: string): string[] {
  // One pass over the characters (this runs for every candidate name, so no regex chain).
  const src = text.normalize('NFD');
  const words: string[] = [];
  let word = '';
  let kind = 0; // 0 none, 1 letters, 2 digits
  const flush = () => {
    if (word) words.push(word);
    word = '';
    kind = 0;
  };
  for (let i = 0; i < src.length; i++) {
    let c = src.charCodeAt(i);
    if (c >= 0x300 && c <= 0x36f) continue; // combining accent
    if (c >= 97 && c <= 122) c -= 32;
    if (c >= 65 && c <= 90) {
      if (kind === 2) flush();
      word += String.fromCharCode(c);
      kind = 1;
    } else if (c >= 48 && c <= 57) {
      if (kind === 1) flush();
      word += String.fromCharCode(c);
      kind = 2;
    } else if ((c === 44 || c === 46) && kind === 2 && i + 1 < src.length && src.charCodeAt(i + 1) >= 48 && src.charCodeAt(i + 1) <= 57) {
      word += '.'; // decimal comma or point inside a number ("1,5L")
    } else {
      flush();
    }
  }
  flush();
  return words;
}

/** Canonical tokens of a description, in order, without repeats. */
export function similarityTokens(text: string): string[] {
  const words = splitWords(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (NUMBER.test(w) && next && MEASURES[next]) {
      out.push(canonicalMeasure(w, next));
      i++;
      continue;
    }
    const word = SYNONYMS[w] ?? w;
    if (STOPWORDS.has(word)) continue;
    out.push(word.replace('.', 'P'));
  }
  return [...new Set(out)];
}

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
  for (let i = 0, j = 0; i < a.grams.length && j < b.grams.length; ) {
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
