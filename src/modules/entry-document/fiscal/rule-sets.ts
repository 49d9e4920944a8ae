/*
 * The inbound credit rules change with the tax reform (EC 132/2023, LC 214/2025): which set a
 * document follows is decided by its own date (dhEmi / issueDate), never by a switch. docs/decisions.md
 * ("Inbound booking, second pass") gives the sources.
 */

export interface InboundRuleSet {
  id: 'PRE_REFORM' | 'CBS_2027';
  /** First issue date (inclusive) the set applies to. */
  from: string;
  /** PIS/COFINS non-cumulative credits (Leis 10.637/2002 and 10.833/2003 art. 3). */
  pisCofins: boolean;
  /**
   * CBS (and the IBS test rate) credited on acquisitions, as the document charges them (LC 214/2025
   * art. 47; PIS/COFINS extinguished from 2027 by EC 132/2023 art. 126 ADCT and LC 214/2025 art. 544).
   */
  cbsIbs: boolean;
}

export const INBOUND_RULE_SETS: readonly InboundRuleSet[] = Object.freeze([
  { id: 'PRE_REFORM', from: '0000-01-01', pisCofins: true, cbsIbs: false },
  { id: 'CBS_2027', from: '2027-01-01', pisCofins: false, cbsIbs: true },
]);

/** The rule set of a document by its issue date (YYYY-MM-DD, or a dhEmi timestamp: its date part). */
export function ruleSetFor(issueDate: string | null | undefined): InboundRuleSet {
  const day = (issueDate ?? '').slice(0, 10);
  let chosen = INBOUND_RULE_SETS[0];
  for (const r of INBOUND_RULE_SETS) if (day >= r.from) chosen = r;
  return chosen;
}
