/** GTIN-8/12/13/14 with a valid check digit; "SEM GTIN", empty and anything else are not GTINs. */
export function isValidGtin(value: string | null | undefined): value is string {
  if (!value || !/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return false;
  const digits = value.split('').map(Number);
  const check = digits.pop()!;
  const total = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check;
}

/** The GTIN when valid, else null (NF-e's cEAN/cEANTrib carry "SEM GTIN" when there is none). */
export const normalizeGtin = (value: string | null | undefined): string | null => {
  const v = value?.trim() ?? '';
  return isValidGtin(v) ? v : null;
};
