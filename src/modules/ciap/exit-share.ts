import type { EntityManager } from 'typeorm';
import { Dec, round, sum } from '../../core/decimal';
import { loadFiscalBook, summarize } from '../fiscal-books';
import type { SummaryRow } from '../fiscal-books';

/*
 * The month's share of taxed exits (LC 87/1996 art. 20 §5 III): the credit of a part is multiplied by
 * "a relação entre o valor das operações de saídas e prestações tributadas e o total das operações de
 * saídas e prestações do período", exports counting as taxed. Read from the fiscal books' summary of the
 * month (the Livro de Saídas: regular documents only — cancelled, denied and voided left out), by the
 * CST of each row (docs/decisions/tax-law-rows.md, row 9):
 *   taxed — Tabela B 00, 10, 20, 70 (ICMS charged, in full, with ST or on a reduced base), 60 (ICMS
 *           charged before by substitution), 90 when the row carries ICMS; and every export (CFOP 7xxx);
 *   total — every exit row, whatever its CST (exempt 40, not taxed 41, suspended 50, deferred 51…).
 */

export interface ExitShare {
  taxed: Dec;
  total: Dec;
  /** How the figures were read, for the record (G126 has the two values; this says where they came from). */
  source: string;
}

const TAXED_CSTS = new Set(['00', '10', '20', '60', '70']);

export function isTaxedExit(row: Pick<SummaryRow, 'cfop' | 'cst' | 'figures'>): boolean {
  if (row.cfop.startsWith('7')) return true;
  const cst = row.cst.slice(-2);
  return TAXED_CSTS.has(cst) || (cst === '90' && row.figures.icms.gt(0));
}

export function exitShareOf(exits: Pick<SummaryRow, 'cfop' | 'cst' | 'figures'>[]): { taxed: Dec; total: Dec } {
  return {
    taxed: round(sum(exits.filter(isTaxedExit).map((r) => r.figures.operationValue)), 'amount'),
    total: round(sum(exits.map((r) => r.figures.operationValue)), 'amount'),
  };
}

export async function monthExitShare(em: EntityManager, companyId: number, filialId: number, month: string): Promise<ExitShare> {
  const summary = summarize(await loadFiscalBook(em, companyId, filialId, month));
  const { taxed, total } = exitShareOf(summary.exits);
  const documents = new Set(summary.exits.flatMap((r) => r.sources.map((s) => s.ref))).size;
  return { taxed, total, source: `fiscal-books ${month}: ${summary.exits.length} exit rows (CFOP × CST × rate) of ${documents} documents` };
}

/** A part's credit in the month: part × taxed / total, to the cent (no exits: nothing is credited). */
export const creditOf = (part: Dec, share: { taxed: Dec; total: Dec }): Dec =>
  share.total.gt(0) ? round(part.times(share.taxed).div(share.total), 'amount') : new Dec(0);

/** 1/48 of the credit each month, the cents' residue on the last part (so the parts add up to the credit). */
export function splitParts(total: Dec, count: number): Dec[] {
  const part = round(total.div(count), 'amount');
  const parts = Array.from({ length: count }, () => part);
  parts[count - 1] = round(total.minus(part.times(count - 1)), 'amount');
  return parts;
}

/** The month `n` months after `month` (YYYY-MM). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
