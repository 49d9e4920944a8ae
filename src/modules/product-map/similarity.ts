import { Dec } from '../../core/decimal';

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

/** Measure units: canonical unit and the factor to it (volumes to ML, masses to G). */
const MEASURES: Record<string, { unit: string; factor: number }> = {
  ML: { unit: 'ML', factor: 1 },
  MLS: { unit: 'ML', factor: 1 },
  CL: { unit: 'ML', factor: 10 },
  L: { unit: 'ML', factor: 1000 },
  LT: { unit: 'ML', factor: 1000 },
  LTS: { unit: 'ML', factor: 1000 },
  LITRO: { unit: 'ML', factor: 1000 },
  LITROS: { unit: 'ML', factor: 1000 },
  G: { unit: 'G', factor: 1 },
  GR: { unit: 'G', factor: 1 },
  GRS: { unit: 'G', factor: 1 },
  GRAMA: { unit: 'G', factor: 1 },
  GRAMAS: { unit: 'G', factor: 1 },
  KG: { unit: 'G', factor: 1000 },
  KGS: { unit: 'G', factor: 1000 },
  KILO: { unit: 'G', factor: 1000 },
  KILOS: { unit: 'G', factor: 1000 },
  QUILO: { unit: 'G', factor: 1000 },
  MG: { unit: 'MG', factor: 1 },
  M: { unit: 'M', factor: 1 },
  MT: { unit: 'M', factor: 1 },
  MTS: { unit: 'M', factor: 1 },
  METRO: { unit: 'M', factor: 1 },
  METROS: { unit: 'M', factor: 1 },
  CM: { unit: 'CM', factor: 1 },
  MM: { unit: 'MM', factor: 1 },
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

function canonicalMeasure(value: string, unit: string): string {
  const m = MEASURES[unit];
  const amount = new Dec(value).times(m.factor);
  return `${amount.toDecimalPlaces(3).toString().replace('.', 'P')}${m.unit}`;
}

/**
 * Upper case, accents and punctuation removed, decimal commas kept inside numbers ("1,5L"), numbers
 * split from letters ("350ML" → "350 ML"); the raw words every other step starts from.
 */
export function splitWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/(\d)[,.](\d)/g, '$1.$2')
    .replace(/[^A-Z0-9.]+|\.(?!\d)|(?<!\d)\./g, ' ')
    .replace(/(\d)([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(\d)/g, '$1 $2')
    .split(' ')
    .filter(Boolean);
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
  grams: Set<string>;
}

function trigrams(tokens: string[]): Set<string> {
  const grams = new Set<string>();
  for (const t of tokens) {
    const padded = ` ${t} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** The precomputed form of a text that `score` compares (compute once per product, once per item). */
export function profile(text: string): Profile {
  const tokens = similarityTokens(text);
  return { tokens, tokenSet: new Set(tokens), grams: trigrams(tokens) };
}

/** How well word `t` is covered by the other side: exact 1, an abbreviation (prefix, ≥ 3 letters) 0.8. */
function coverage(t: string, other: Profile): number {
  if (other.tokenSet.has(t)) return 1;
  if (t.length < 3 || /\d/.test(t)) return 0;
  let best = 0;
  for (const o of other.tokens) {
    if (o.length >= 3 && !/\d/.test(o) && (o.startsWith(t) || t.startsWith(o))) best = 0.8;
  }
  return best;
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
  for (const g of a.grams) if (b.grams.has(g)) shared++;
  const gramScore = (2 * shared) / (a.grams.size + b.grams.size);
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
