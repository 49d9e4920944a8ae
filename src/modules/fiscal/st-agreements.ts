import { Dec } from '../../core/decimal';
import type { FiscalOperation } from './fiscal-document';

/*
 * ICMS-ST by the pair of states and the goods (issue 45 row 5; docs/decisions/tax-law-rows.md). A rule
 * with stMode AGREEMENT asks this table: the agreement in force for (origin UF, destination UF, NCM
 * prefix, CEST) gives the ST and its MVA; without one the sale goes without ST (LC 87/1996 art. 9:
 * ST between states follows the agreements between them; Convênio ICMS 142/2018 cl. 9–10), so the
 * rule's ST CST and CFOP turn into their counterparts without ST.
 */

export interface EngineStAgreement {
  id: number;
  originUf: string;
  destinationUf: string;
  ncmPrefix: string;
  cest: string;
  mva: Dec;
  destinationInternalRate: Dec | null;
  validFrom: string;
  validTo: string | null;
  source: string;
  active: boolean;
}

/** What ST an item gets: the original MVA, the destination's internal rate when the agreement fixes one, and the act. */
export interface ItemSt {
  mva: Dec;
  internalRate: Dec | null;
  source: string | null;
}

/** CST/CSOSN with ST → the same operation without it (CST 10 → 00, 30 → 40, 70 → 20; CSOSN 201 → 101, 202 → 102, 203 → 103). */
export const WITHOUT_ST: Readonly<Record<string, string>> = {
  '10': '00',
  '30': '40',
  '70': '20',
  '201': '101',
  '202': '102',
  '203': '103',
};

/** CFOP of a sale as substitute → the plain sale (CFOP table: x.401 → x.101, x.403 → x.102); others stay. */
export function cfopWithoutSt(cfop: string, operation: FiscalOperation): string {
  if (operation !== 'SALE') return cfop;
  const tail = cfop.slice(1);
  return tail === '401' ? `${cfop[0]}101` : tail === '403' ? `${cfop[0]}102` : cfop;
}

const inForce = (date: string, from: string, to: string | null) => from <= date && (to === null || date <= to);

/** The agreement in force for the item: a CEST match over an NCM-only one, then the longest NCM prefix, then the latest start. */
export function pickStAgreement(
  agreements: EngineStAgreement[],
  key: { originUf: string; destinationUf: string; ncm: string | null; cest: string | null; date: string },
): EngineStAgreement | null {
  let best: EngineStAgreement | null = null;
  const rank = (a: EngineStAgreement) => (a.cest ? 100 : 0) + a.ncmPrefix.length;
  for (const a of agreements) {
    if (!a.active || a.originUf !== key.originUf || a.destinationUf !== key.destinationUf || !inForce(key.date, a.validFrom, a.validTo))
      continue;
    if (!key.ncm || !key.ncm.startsWith(a.ncmPrefix)) continue;
    if (a.cest && a.cest !== key.cest) continue;
    if (!best || rank(a) > rank(best) || (rank(a) === rank(best) && a.validFrom > best.validFrom)) best = a;
  }
  return best;
}
