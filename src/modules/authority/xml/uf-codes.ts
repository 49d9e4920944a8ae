import { UF_IBGE_CODES } from '../../../core/br-fiscal';

/** IBGE codes of the federative units (cUF / cUFAutor): the one table in core/br-fiscal.ts. */
export const UF_CODES: Readonly<Record<string, string>> = Object.freeze({ ...UF_IBGE_CODES });

export const ufCode = (uf: string): string | null => UF_CODES[uf.toUpperCase()] ?? null;

const BY_CODE: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(UF_CODES).map(([uf, code]) => [code, uf])),
);

export const ufOfCode = (code: string): string | null => BY_CODE[code] ?? null;
