/** Brazilian document numbers: CPF (11 digits) and CNPJ (14 digits) with their mod-11 check digits. */

const onlyDigits = (s: string) => s.replace(/\D/g, '');

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

function cnpjValid(d: string): boolean {
  if (!/^\d{14}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  const calc = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * Number(d[i]), 0);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return calc(12) === Number(d[12]) && calc(13) === Number(d[13]);
}

export const isValidCpf = (value: string) => cpfValid(onlyDigits(value));
export const isValidCnpj = (value: string) => cnpjValid(onlyDigits(value));

/** Digits of a valid CPF/CNPJ, or null. Punctuation is accepted; other characters are not. */
export function normalizeDocument(value: string, kinds: 'cpf' | 'cnpj' | 'any' = 'any'): string | null {
  if (!/^[\d.\-/\s]+$/.test(value)) return null;
  const d = onlyDigits(value);
  if (d.length === 11 && kinds !== 'cnpj') return cpfValid(d) ? d : null;
  if (d.length === 14 && kinds !== 'cpf') return cnpjValid(d) ? d : null;
  return null;
}

/** Completes 12 base digits of a CNPJ with its check digits (seed, tests, simulators). */
export function cnpjWithCheckDigits(base12: string): string {
  let d = base12;
  for (const len of [12, 13]) {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = weights.reduce((acc, w, i) => acc + w * Number(d[i]), 0) % 11;
    d += String(r < 2 ? 0 : 11 - r);
  }
  return d;
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
