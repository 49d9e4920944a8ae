/*
 * Brazilian fiscal identifiers: UFs and their IBGE codes, IBGE municipality codes, NCM, CEST and the
 * state registration (IE) check digits of the UFs whose rule is public and common in our customers'
 * trade (SP, MG, RJ, PR, RS, SC, BA); other UFs get a format check (digits, 2–14). Pure functions.
 */

/** IBGE code of each UF (the first two digits of its municipalities' codes and the cUF of a key). */
export const UF_IBGE_CODES: Readonly<Record<string, string>> = {
  RO: '11',
  AC: '12',
  AM: '13',
  RR: '14',
  PA: '15',
  AP: '16',
  TO: '17',
  MA: '21',
  PI: '22',
  CE: '23',
  RN: '24',
  PB: '25',
  PE: '26',
  AL: '27',
  SE: '28',
  BA: '29',
  MG: '31',
  ES: '32',
  RJ: '33',
  SP: '35',
  PR: '41',
  SC: '42',
  RS: '43',
  MS: '50',
  MT: '51',
  GO: '52',
  DF: '53',
};
export const UFS: readonly string[] = Object.keys(UF_IBGE_CODES);
export const isUf = (uf: string): boolean => Object.prototype.hasOwnProperty.call(UF_IBGE_CODES, uf);

/** A 7-digit IBGE municipality code of `uf` (its first two digits are the UF's code). */
export function municipalityCodeMatchesUf(code: string, uf: string): boolean {
  return /^\d{7}$/.test(code) && UF_IBGE_CODES[uf] === code.slice(0, 2);
}

/** NCM: 8 digits whose first two are a chapter of the nomenclature (01–97). */
export function isValidNcm(ncm: string): boolean {
  if (!/^\d{8}$/.test(ncm)) return false;
  const chapter = Number(ncm.slice(0, 2));
  return chapter >= 1 && chapter <= 97 && chapter !== 77;
}

export const isValidCest = (cest: string): boolean => /^\d{7}$/.test(cest);

/** CNAE: 7 digits (subclasse). */
export const isValidCnae = (cnae: string): boolean => /^\d{7}$/.test(cnae);

const digits = (s: string) => Array.from(s, Number);
const weighted = (d: number[], weights: number[]) => weights.reduce((acc, w, i) => acc + w * d[i], 0);
const mod11Dv = (sum: number) => {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
};

/** SP (comércio/indústria): 12 digits, DVs at positions 9 and 12 (Decreto SP, Anexo; Sintegra). */
function spValid(ie: string): boolean {
  if (!/^\d{12}$/.test(ie)) return false;
  const d = digits(ie);
  const dv1 = (weighted(d, [1, 3, 4, 5, 6, 7, 8, 10]) % 11) % 10;
  const dv2 = (weighted(d, [3, 2, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11) % 10;
  return d[8] === dv1 && d[11] === dv2;
}

/** MG: 13 digits; DV1 by the 1-2 weights over the digits with a 0 after the municipality's three, DV2 mod 11. */
function mgValid(ie: string): boolean {
  if (!/^\d{13}$/.test(ie)) return false;
  const d = digits(ie);
  const expanded = [d[0], d[1], d[2], 0, ...d.slice(3, 11)];
  let s = 0;
  expanded.forEach((v, i) => {
    const p = v * (i % 2 === 0 ? 1 : 2);
    s += p > 9 ? Math.floor(p / 10) + (p % 10) : p;
  });
  const dv1 = (10 - (s % 10)) % 10;
  if (d[11] !== dv1) return false;
  return d[12] === mod11Dv(weighted(d, [3, 2, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]));
}

/** RJ: 8 digits, one mod-11 DV with weights 2,7,6,5,4,3,2. */
function rjValid(ie: string): boolean {
  if (!/^\d{8}$/.test(ie)) return false;
  const d = digits(ie);
  return d[7] === mod11Dv(weighted(d, [2, 7, 6, 5, 4, 3, 2]));
}

/** PR: 10 digits, two mod-11 DVs. */
function prValid(ie: string): boolean {
  if (!/^\d{10}$/.test(ie)) return false;
  const d = digits(ie);
  return d[8] === mod11Dv(weighted(d, [3, 2, 7, 6, 5, 4, 3, 2])) && d[9] === mod11Dv(weighted(d, [4, 3, 2, 7, 6, 5, 4, 3, 2]));
}

/** RS: 10 digits, one DV: 11 − (sum mod 11), 10 and 11 → 0. */
function rsValid(ie: string): boolean {
  if (!/^\d{10}$/.test(ie)) return false;
  const d = digits(ie);
  const dv = 11 - (weighted(d, [2, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return d[9] === (dv >= 10 ? 0 : dv);
}

/** SC: 9 digits, one mod-11 DV. */
function scValid(ie: string): boolean {
  if (!/^\d{9}$/.test(ie)) return false;
  const d = digits(ie);
  return d[8] === mod11Dv(weighted(d, [9, 8, 7, 6, 5, 4, 3, 2]));
}

/**
 * BA: 8 or 9 digits; the last DV first, then the one before it over the base and that DV; modulus 10
 * when the first (8 digits) or second (9 digits) digit is 0–5 or 8, else 11.
 */
function baValid(ie: string): boolean {
  if (!/^\d{8,9}$/.test(ie)) return false;
  const d = digits(ie);
  const n = d.length;
  const baseLen = n - 2;
  const mod10 = [0, 1, 2, 3, 4, 5, 8].includes(n === 8 ? d[0] : d[1]);
  const dv = (sum: number) => {
    if (mod10) return (10 - (sum % 10)) % 10;
    return mod11Dv(sum);
  };
  const base = d.slice(0, baseLen);
  const w2 = Array.from({ length: baseLen }, (_v, i) => baseLen + 1 - i);
  const dv2 = dv(weighted(base, w2));
  const w1 = Array.from({ length: baseLen + 1 }, (_v, i) => baseLen + 2 - i);
  const dv1 = dv(weighted([...base, dv2], w1));
  return d[n - 2] === dv1 && d[n - 1] === dv2;
}

const IE_RULES: Record<string, (ie: string) => boolean> = {
  SP: spValid,
  MG: mgValid,
  RJ: rjValid,
  PR: prValid,
  RS: rsValid,
  SC: scValid,
  BA: baValid,
};

/** The digits of an IE as people type it ("110.042.490.114" → "110042490114"). */
export const compactStateRegistration = (ie: string): string => ie.replace(/[.\-/\s]/g, '').toUpperCase();

/**
 * Whether `ie` (already compacted) is a valid IE of `uf`: the UF's check digits where the rule is
 * implemented, else 2–14 digits.
 */
export function isValidStateRegistration(ie: string, uf: string): boolean {
  const rule = IE_RULES[uf];
  if (rule) return rule(ie);
  return /^\d{2,14}$/.test(ie);
}

/** UFs whose IE check digits are verified (others: format only). */
export const IE_CHECKED_UFS: readonly string[] = Object.keys(IE_RULES);

/** South and Southeast UFs except ES: their interstate rate to N/NE/CO/ES is 7 % (Resolução SF 22/1989). */
const SOUTH_SOUTHEAST_EXCEPT_ES = new Set(['SP', 'RJ', 'MG', 'PR', 'SC', 'RS']);

/** Product origins (orig) of imported goods taxed at 4 % between UFs (Resolução SF 13/2012). */
export const IMPORTED_4_PERCENT_ORIGINS: readonly number[] = [1, 2, 3, 8];

/**
 * The interstate ICMS rate (percent) from `originUf` to `destinationUf` for goods of `origin`:
 * 4 % for imported origins 1, 2, 3, 8 (Res. SF 13/2012); 7 % from S/SE (except ES) to N/NE/CO/ES,
 * else 12 % (Res. SF 22/1989).
 */
export function interstateRate(originUf: string, destinationUf: string, origin: number): number {
  if (IMPORTED_4_PERCENT_ORIGINS.includes(origin)) return 4;
  if (SOUTH_SOUTHEAST_EXCEPT_ES.has(originUf) && !SOUTH_SOUTHEAST_EXCEPT_ES.has(destinationUf)) return 7;
  return 12;
}
