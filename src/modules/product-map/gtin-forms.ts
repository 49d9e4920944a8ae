/**
 * The forms one GTIN takes in barcode columns: GTIN-8/12/13 are GTIN-14 with leading zeros (the check
 * digit is the same), so "07891234567895" and "7891234567895" are one barcode.
 */
export function gtinForms(gtin: string): string[] {
  const padded = gtin.padStart(14, '0');
  const forms = new Set([gtin, padded]);
  for (const len of [13, 12, 8]) if (/^0*$/.test(padded.slice(0, 14 - len))) forms.add(padded.slice(14 - len));
  return [...forms];
}

/** One key per barcode whatever its form. */
export const gtinKey = (gtin: string): string => gtin.padStart(14, '0');
