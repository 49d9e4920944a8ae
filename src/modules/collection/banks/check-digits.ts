/*
 * The check-digit arithmetic of boletos and bank accounts (FEBRABAN "Layout Padrão de Arrecadação/
 * Recebimento com Utilização do Código de Barras" and the banks' collection manuals;
 * docs/decisions/collection-boleto.md). Pure functions over digit strings.
 */

const digitsOf = (s: string): number[] => {
  if (!/^\d*$/.test(s)) throw new Error(`not a digit string: ${s}`);
  return [...s].map(Number);
};

/** Módulo 10: weights 2,1,2,1… from the right, the digits of each product summed; DV = (10 − sum mod 10) mod 10. */
export function mod10(s: string): number {
  let sum = 0;
  let weight = 2;
  for (const d of digitsOf(s).reverse()) {
    const p = d * weight;
    sum += p > 9 ? p - 9 : p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** Σ digit × weight with weights 2…`base` cycling from the right. */
export function weightedFromRight(s: string, base = 9): number {
  let sum = 0;
  let weight = 2;
  for (const d of digitsOf(s).reverse()) {
    sum += d * weight;
    weight = weight === base ? 2 : weight + 1;
  }
  return sum;
}

/** Σ digit × weight with the given weights from the left (cycled when shorter). */
export function weightedFromLeft(s: string, weights: number[]): number {
  return digitsOf(s).reduce((acc, d, i) => acc + d * weights[i % weights.length], 0);
}

/** 11 − (sum mod 11), with the bank's substitutes for 10 and 11 (results 0…9 otherwise). */
export function mod11(s: string, opts: { base?: number; on10?: string; on11?: string } = {}): string {
  const dv = 11 - (weightedFromRight(s, opts.base ?? 9) % 11);
  if (dv === 10) return opts.on10 ?? '0';
  if (dv === 11) return opts.on11 ?? '0';
  return String(dv);
}

/** The barcode's general DV (position 5): mod 11 weights 2…9; 0, 1, 10 and 11 become 1. */
export function barcodeDv(digits43: string): number {
  const dv = 11 - (weightedFromRight(digits43, 9) % 11);
  return dv === 0 || dv === 1 || dv === 10 || dv === 11 ? 1 : dv;
}

export const pad = (value: string | number, length: number): string => {
  const s = String(value);
  if (s.length > length) throw new Error(`${s} does not fit in ${length} digits`);
  return s.padStart(length, '0');
};
