import { defaultEntryCfop, entryOperation, isEntryCfop } from './cfop-table';
import type { CfopRule, EntryCfopSource, LineFiscal, NfePurpose, OperationClass, OperationClassSource } from './fiscal.types';
import { PURPOSES, RETURN_OF_OURS_ISSUER_OPERATIONS } from './operation-rules';

/*
 * A line's booking: its entry CFOP (a choice made on the draft, else the company's most specific rule,
 * else the invoice's own entry CFOP, else the default table) and its operation class (fixed by finNFe
 * 2–6, else a choice made on the draft, else the rule's, else the entry CFOP's nature). Pure: the
 * company's rules come in as data.
 */

export interface LineFiscalInput {
  /** The CFOP the issuer declared (the booked `cfop` of the line). */
  cfop: string | null;
  ncm: string | null;
  productId: number | null;
  /** Chosen on the draft (kept only when it differs from what the rules give). */
  entryCfop?: string | null;
  operationClass?: OperationClass | null;
}

/** The rule for the issuer's CFOP that is most specific for the line: its product, then the longest NCM prefix, then the CFOP alone. */
export function ruleFor(rules: CfopRule[], line: Pick<LineFiscalInput, 'cfop' | 'ncm' | 'productId'>): CfopRule | null {
  if (!line.cfop) return null;
  let best: CfopRule | null = null;
  let bestRank = -1;
  for (const r of rules) {
    if (r.issuerCfop !== line.cfop) continue;
    if (r.productId !== null && r.productId !== line.productId) continue;
    if (r.ncm !== null && !(line.ncm ?? '').startsWith(r.ncm)) continue;
    // A product rule beats any NCM rule; a longer NCM prefix beats a shorter one; the CFOP alone ranks last.
    const rank = r.productId !== null ? 100 : r.ncm !== null ? r.ncm.length : 0;
    if (rank > bestRank) {
      best = r;
      bestRank = rank;
    }
  }
  return best;
}

interface DerivedEntry {
  entryCfop: string | null;
  source: EntryCfopSource;
  rule: CfopRule | null;
}

function derivedEntryCfop(line: LineFiscalInput, rules: CfopRule[]): DerivedEntry {
  const rule = ruleFor(rules, line);
  if (rule) return { entryCfop: rule.entryCfop, source: 'COMPANY_RULE', rule };
  if (line.cfop && isEntryCfop(line.cfop)) return { entryCfop: line.cfop, source: 'DECLARED', rule: null };
  const fallback = line.cfop ? defaultEntryCfop(line.cfop) : null;
  return fallback ? { entryCfop: fallback, source: 'DEFAULT', rule: null } : { entryCfop: null, source: 'NONE', rule: null };
}

export interface ResolvedLineFiscal extends LineFiscal {
  /** A class chosen on the draft that finNFe overrides (the caller refuses it). */
  refusedClass: OperationClass | null;
}

/**
 * The class finNFe forces on a line, if any. A return (4) is a customer's return of our sale unless
 * the issuer's CFOP says our own goods come back (consignment, containers, a transfer): those lines
 * are booked by their entry CFOP (RETURN_OF_OURS, TRANSFER) instead of being refused.
 */
export function purposeClass(purpose: NfePurpose, issuerCfop: string | null): OperationClass | null {
  if (purpose === '4' && issuerCfop && /^[567]\d{3}$/.test(issuerCfop) && RETURN_OF_OURS_ISSUER_OPERATIONS.has(issuerCfop.slice(1)))
    return null;
  return PURPOSES[purpose].forcesClass;
}

export function resolveLineFiscal(line: LineFiscalInput, purpose: NfePurpose, rules: CfopRule[]): ResolvedLineFiscal {
  const derived = derivedEntryCfop(line, rules);
  const manualCfop = !!line.entryCfop && line.entryCfop !== derived.entryCfop;
  const entryCfop = manualCfop ? line.entryCfop! : derived.entryCfop;
  const entryCfopSource: EntryCfopSource = manualCfop ? 'MANUAL' : derived.source;
  const rule = manualCfop ? null : derived.rule;

  const forced = purposeClass(purpose, line.cfop);
  if (forced) {
    const refusedClass = line.operationClass && line.operationClass !== forced ? line.operationClass : null;
    return { entryCfop, entryCfopSource, operationClass: forced, operationClassSource: 'PURPOSE', ruleId: rule?.id ?? null, refusedClass };
  }
  let derivedClass: OperationClass | null = null;
  let classSource: OperationClassSource = 'NONE';
  const nature = entryOperation(entryCfop);
  if (rule?.operationClass) [derivedClass, classSource] = [rule.operationClass, 'COMPANY_RULE'];
  else if (nature?.operationClass) [derivedClass, classSource] = [nature.operationClass, 'CFOP'];
  // A line without any CFOP (manual entries made before CFOPs were booked): a purchase for resale, as always.
  else if (!line.cfop && !entryCfop) [derivedClass, classSource] = ['PURCHASE_RESALE', 'NO_CFOP'];
  const manualClass = !!line.operationClass && line.operationClass !== derivedClass;
  return {
    entryCfop,
    entryCfopSource,
    operationClass: manualClass ? line.operationClass! : derivedClass,
    operationClassSource: manualClass ? 'MANUAL' : classSource,
    ruleId: rule?.id ?? null,
    refusedClass: null,
  };
}
