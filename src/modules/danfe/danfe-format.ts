import type { Dec } from '../../core/decimal';

/** How the DANFE writes numbers, documents and dates (Brazilian conventions). */

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** 1234.5 → "1.234,50" with `scale` decimals (round half up, as the layout's values already are). */
export function money(value: Dec | null | undefined, scale = 2): string {
  if (!value) return '0,' + '0'.repeat(scale);
  const fixed = value.toFixed(scale);
  const negative = fixed.startsWith('-');
  const [int, frac] = fixed.replace('-', '').split('.');
  return `${negative ? '-' : ''}${group(int)}${frac ? `,${frac}` : ''}`;
}

/** A price as written, with at least 2 and at most 10 decimals (trailing zeros beyond 2 dropped). */
export function price(value: Dec | null | undefined): string {
  if (!value) return '0,00';
  const fixed = value.toFixed(10).replace(/0+$/, '');
  const decimals = Math.max(2, (fixed.split('.')[1] ?? '').length);
  return money(value, decimals);
}

export function document(doc: string | null | undefined): string {
  const d = (doc ?? '').trim();
  if (/^\d{14}$/.test(d)) return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
  if (/^\d{11}$/.test(d)) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
  return d;
}

export const zip = (cep: string | null | undefined) => (cep && /^\d{8}$/.test(cep) ? `${cep.slice(0, 5)}-${cep.slice(5)}` : (cep ?? ''));

/** The access key in groups of four. */
export const accessKey = (key: string) => key.replace(/(.{4})/g, '$1 ').trim();

/** "2025-03-10T10:00:00-03:00" → "10/03/2025" (the date as written, its own offset). */
export function date(text: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

export function time(text: string | null | undefined): string {
  return /T(\d{2}:\d{2}:\d{2})/.exec(text ?? '')?.[1] ?? '';
}

export const FREIGHT_MODE: Record<string, string> = {
  '0': '0 - EMITENTE',
  '1': '1 - DESTINATÁRIO',
  '2': '2 - TERCEIROS',
  '3': '3 - PRÓPRIO REMETENTE',
  '4': '4 - PRÓPRIO DESTINATÁRIO',
  '9': '9 - SEM FRETE',
};
