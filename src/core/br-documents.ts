/*
 * Brazilian document numbers: CPF (11 digits) and CNPJ (14 characters) with their mod-11 check digits,
 * and the pattern of the NF-e access key that carries them.
 *
 * CNPJ: from July 2026 the federal revenue also issues alphanumeric CNPJs (IN RFB 2.229/2024,
 * NT 2025.001): 12 characters A–Z/0–9, then two numeric check digits, each character counting as its
 * ASCII code − 48 ('0'…'9' → 0…9, 'A' → 17 … 'Z' → 42). For an all-digit CNPJ that is the old rule,
 * so numeric CNPJs validate exactly as before.
 */

/** 12 characters A–Z/0–9, then 2 check digits. */
export const CNPJ_PATTERN = /^[0-9A-Z]{12}\d{2}$/;

/**
 * The 44-character access key: cUF(2) AAMM(4) emitter CNPJ/CPF(14, alphanumeric CNPJ allowed) mod(2)
 * serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1) — the TChNFe pattern of layout PL_010.
 */
export const ACCESS_KEY_PATTERN = /^\d{6}[0-9A-Z]{12}\d{26}$/;

/** Value of one character in the mod-11 weights: ASCII code − 48. */
export const charValue = (c: string) => c.charCodeAt(0) - 48;

/** Separators people type in documents; what remains must be the characters of the number. */
const SEPARATORS = /[.\-/\s]/g;

function cpfValid(d: string): boolean {
  if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const dv = ((sum * 10) % 11) % 10;
    if (dv !== Number(d[len])) return false;
  }
  return true;
}

const CNPJ_WEIGHTS: Record<12 | 13, number[]> = {
  12: [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  13: [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
};

function cnpjDigit(chars: string, len: 12 | 13): number {
  const r = CNPJ_WEIGHTS[len].reduce((acc, w, i) => acc + w * charValue(chars[i]), 0) % 11;
  return r < 2 ? 0 : 11 - r;
}

function cnpjValid(d: string): boolean {
  if (!CNPJ_PATTERN.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  return cnpjDigit(d, 12) === Number(d[12]) && cnpjDigit(d, 13) === Number(d[13]);
}

/** Upper case, separators removed (no check): "12.abc.345/01de-35" → "12ABC34501DE35". */
const compact = (value: string) => value.replace(SEPARATORS, '').toUpperCase();

export const isValidCpf = (value: string) => cpfValid(compact(value));
export const isValidCnpj = (value: string) => cnpjValid(compact(value));

/**
 * The canonical form of a valid CPF/CNPJ (digits; an alphanumeric CNPJ in upper case), or null.
 * Separators (. - / spaces) are accepted, and lower-case letters of an alphanumeric CNPJ; nothing else.
 */
export function normalizeDocument(value: string, kinds: 'cpf' | 'cnpj' | 'any' = 'any'): string | null {
  if (!/^[0-9A-Za-z.\-/\s]+$/.test(value)) return null;
  const d = compact(value);
  if (d.length === 11 && kinds !== 'cnpj') return cpfValid(d) ? d : null;
  if (d.length === 14 && kinds !== 'cpf') return cnpjValid(d) ? d : null;
  return null;
}

/**
 * A search term read as the start of a CPF/CNPJ: separators removed, upper case, at least 3
 * characters, only A–Z/0–9 and at least one digit (a word without digits is a name). Null otherwise.
 */
export function documentSearchPrefix(term: string): string | null {
  const d = compact(term.trim());
  return d.length >= 3 && d.length <= 14 && /^[0-9A-Z]+$/.test(d) && /\d/.test(d) ? d : null;
}

/** Completes the 12 base characters of a CNPJ (digits, or A–Z/0–9) with its check digits (seed, tests, simulators). */
export function cnpjWithCheckDigits(base12: string): string {
  const base = base12.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new Error('cnpjWithCheckDigits needs 12 characters A-Z/0-9');
  const first = `${base}${cnpjDigit(base, 12)}`;
  return `${first}${cnpjDigit(first, 13)}`;
}

/** Completes 9 base digits of a CPF with its check digits. */
export function cpfWithCheckDigits(base9: string): string {
  let d = base9;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    d += String(((sum * 10) % 11) % 10);
  }
  return d;
}

/** Upper case, no accents, single spaces: the form searches compare. */
export function normalizeText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}
