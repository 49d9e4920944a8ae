import crypto from 'node:crypto';
import { ACCESS_KEY_PATTERN, charValue, CNPJ_PATTERN } from '../../core/br-documents';

/*
 * The 44-character NF-e access key (chave de acesso):
 *   cUF(2) AAMM(4) CNPJ/CPF(14) mod(2) serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1)
 * cDV is mod 11 over the first 43 characters, weights 2..9 from the right; remainder 0 or 1 → 0.
 * Since NT 2025.001 the emitter's CNPJ may be alphanumeric (positions 7–18 hold A–Z/0–9): each
 * character then weighs its ASCII code − 48, which for digits is the digit itself.
 */

export interface AccessKeyFields {
  ufCode: string;
  /** dhEmi as written: the year and month are taken from the text, in the issuer's own offset. */
  issuedAt: string;
  /** Emitter CNPJ (14, digits or alphanumeric) or CPF (11, left-padded with zeros to 14). */
  issuerDocument: string;
  model: string;
  series: string;
  number: string;
  emissionType: string;
  randomCode: string;
}

export { ACCESS_KEY_PATTERN };

/** A fresh cNF for the document numbered `number`: eight random digits, never equal to nNF (the layout refuses cNF = nNF). */
export function accessKeyRandomCode(number: number): string {
  for (;;) {
    const code = String(crypto.randomInt(10_000_000, 99_999_999));
    if (Number(code) !== number) return code;
  }
}

export function isAccessKeyFormat(key: string): boolean {
  return ACCESS_KEY_PATTERN.test(key);
}

/** Mod-11 check digit of the first 43 characters. */
export function accessKeyCheckDigit(first43: string): number {
  if (!/^\d{6}[0-9A-Z]{12}\d{25}$/.test(first43)) throw new Error('accessKeyCheckDigit needs the 43 characters before cDV');
  let sum = 0;
  let weight = 2;
  for (let i = 42; i >= 0; i--) {
    sum += charValue(first43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

export function hasValidCheckDigit(key: string): boolean {
  return isAccessKeyFormat(key) && accessKeyCheckDigit(key.slice(0, 43)) === Number(key[43]);
}

const pad = (value: string, length: number) => (/^\d+$/.test(value) && value.length <= length ? value.padStart(length, '0') : null);
/** CPF or numeric CNPJ left-padded to 14; an alphanumeric CNPJ as it is. */
const document14 = (value: string) => (CNPJ_PATTERN.test(value) ? value : pad(value, 14));

/** The 43 characters the key must start with, built from the invoice's fields (null when a field cannot fit). */
export function accessKeyBase(f: AccessKeyFields): string | null {
  const yymm = /^\d{2}(\d{2})-(\d{2})/.exec(f.issuedAt);
  const parts = [
    pad(f.ufCode, 2),
    yymm ? `${yymm[1]}${yymm[2]}` : null,
    document14(f.issuerDocument),
    pad(f.model, 2),
    pad(f.series, 3),
    pad(f.number, 9),
    pad(f.emissionType, 1),
    pad(f.randomCode, 8),
  ];
  return parts.every((p) => p !== null) ? parts.join('') : null;
}

/** The full key from the fields (check digit computed). */
export function buildAccessKey(f: AccessKeyFields): string {
  const base = accessKeyBase(f);
  if (!base) throw new Error('The fields do not form an access key');
  return `${base}${accessKeyCheckDigit(base)}`;
}

/**
 * NF-e avulsa (series 890–899) is issued by the tax authority for a producer without its own
 * system: the key then carries the issuing authority's CNPJ, not the emitter's document.
 */
export const isAvulsaSeries = (series: string) => /^\d+$/.test(series) && Number(series) >= 890 && Number(series) <= 899;

/** Where a key differs from the one its fields build: the names of the differing parts. */
export function accessKeyFieldMismatches(key: string, f: AccessKeyFields): string[] {
  const base = accessKeyBase(f);
  if (!base || !isAccessKeyFormat(key)) return ['fields'];
  const skipDocument = isAvulsaSeries(f.series);
  const layout: [string, number, number][] = [
    ['cUF', 0, 2],
    ['AAMM', 2, 6],
    ['emitter document', 6, 20],
    ['mod', 20, 22],
    ['serie', 22, 25],
    ['nNF', 25, 34],
    ['tpEmis', 34, 35],
    ['cNF', 35, 43],
  ];
  return layout
    .filter(([name]) => !(skipDocument && name === 'emitter document'))
    .filter(([, from, to]) => key.slice(from, to) !== base.slice(from, to))
    .map(([name]) => name);
}
