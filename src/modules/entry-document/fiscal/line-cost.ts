import { Dec, round } from '../../../core/decimal';
import { entryOperation, isImportCfop } from './cfop-table';
import type { NfePurpose, OperationClass, TaxRegime } from './fiscal.types';
import { lineEffect } from './line-effect';
import { NO_CREDIT_CONTRIBUTION_CSTS, PIS_COFINS_CREDIT_BASE, PURPOSES, REGIME_CREDITS, SIMPLES_CREDIT_CSOSNS } from './operation-rules';
import { ruleSetFor } from './rule-sets';

/*
 * The net landed cost of a line by the filial's tax regime. The gross landed value is what the line
 * adds to the invoice (goods − discount + freight + insurance + other expenses + IPI + ICMS-ST/FCP-ST);
 * the credits the company takes come out of it and freight apportioned later (CT-e, §4b) goes in:
 *
 *   cost = gross − ICMS credit − IPI credit − PIS credit − COFINS credit + apportioned freight
 *
 * Under the Simples Nacional no credit is taken, so the cost is today's landed value.
 */

export interface LineCostInput {
  /** vProd. */
  total: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
  ipi: Dec;
  icmsSt: Dec;
  /** What the line adds to the document total (the sum of the above). */
  landedTotal: Dec;
  /** The ICMS of the supplier's own operation (taxes.icms.value). */
  icms: Dec;
  /** The supplier's ICMS CST or CSOSN. */
  icmsCst?: string | null;
  /** The ICMS a Simples Nacional supplier states as creditable (vCredICMSSN, CSOSN 101/201/900). */
  snCredit?: Dec;
  /** The document's issue date: it chooses the rule set (rule-sets.ts); absent → the pre-reform rules. */
  issueDate?: string | null;
  /** The line's CBS and IBS as the document charges them (zero when they are informative, not charged). */
  chargedCbs?: Dec;
  chargedIbs?: Dec;
  /**
   * An import (entry CFOP 3xxx): customs expenses (vDespAdu, IOF, AFRMM; the duty vII is in landedTotal)
   * and the PIS/COFINS-Importação paid at customs (vPIS, vCOFINS of the importer's entry NF-e, on vBC).
   */
  customsExpenses?: Dec;
  pisPaid?: Dec;
  cofinsPaid?: Dec;
  pisBase?: Dec | null;
  pisCst: string | null;
  cofinsCst: string | null;
  stockQuantity: Dec;
  entryCfop: string | null;
  operationClass: OperationClass | null;
  /** The class the entry CFOP (or its rule) names, whose credits a value-only document follows. */
  baseClass: OperationClass | null;
  purpose: NfePurpose;
  taxRegime: TaxRegime;
  /** CT-e freight apportioned to the line (§4b): part of its cost, not of the invoice. */
  apportionedFreight: Dec;
}

export interface LineCost {
  credits: { icms: Dec; pis: Dec; cofins: Dec; ipi: Dec; cbs: Dec; ibs: Dec };
  /** The PIS/COFINS credit base (zero when no such credit is taken). */
  creditBase: Dec;
  costTotal: Dec;
  unitCost: Dec;
}

const ZERO = new Dec(0);

/** The class whose credit admissions apply: a value-only document follows its entry CFOP's class, or takes none. */
function creditClass(input: Pick<LineCostInput, 'operationClass' | 'purpose' | 'baseClass'>): OperationClass | null {
  if (input.operationClass !== 'VALUE_ADJUSTMENT') return input.operationClass;
  return PURPOSES[input.purpose].creditsOfBaseClass ? input.baseClass : null;
}

export type IcmsCreditInput = Pick<LineCostInput, 'operationClass' | 'baseClass' | 'purpose' | 'entryCfop' | 'taxRegime'>;

/** The credits the line's class (and its entry CFOP's posting) admits; none when the class is unknown. */
function admittedCredits(input: IcmsCreditInput) {
  const cls = creditClass(input);
  return cls ? (lineEffect(cls, input.entryCfop, input.purpose)?.credits ?? null) : null;
}

/**
 * Whether the ICMS on what a line brings in is credited: its class admits it, the regime takes it and
 * its entry CFOP's nature allows it. The goods' own ICMS and the ICMS of the CT-e freight apportioned
 * onto the line (LC 87/1996 art. 20: the transport follows the goods it carried) both follow it.
 */
export function icmsCreditAdmitted(input: IcmsCreditInput): boolean {
  return !!admittedCredits(input)?.icms && REGIME_CREDITS[input.taxRegime].icms && (entryOperation(input.entryCfop)?.icmsCredit ?? true);
}

/**
 * Whether the PIS/COFINS credit is taken on what a line brings in (its class, the regime, the rule set
 * of the date, the supplier's CSTs): the goods and the CT-e freight onto them (freight on a purchase is
 * acquisition cost, Lei 10.833/2003 art. 3 I and IX; it follows the goods).
 */
export function pisCofinsCreditAdmitted(input: IcmsCreditInput & Pick<LineCostInput, 'issueDate'>): boolean {
  return !!admittedCredits(input)?.pisCofins && !!REGIME_CREDITS[input.taxRegime].pisCofins && ruleSetFor(input.issueDate).pisCofins;
}

/** The PIS and COFINS credit on a base (to the cent), under the regime's rates. */
export function pisCofinsCredit(
  base: Dec,
  taxRegime: TaxRegime,
  csts: { pis: string | null; cofins: string | null } = { pis: null, cofins: null },
) {
  const rates = REGIME_CREDITS[taxRegime].pisCofins;
  if (!rates || !base.gt(0)) return { pis: ZERO, cofins: ZERO };
  return {
    pis: NO_CREDIT_CONTRIBUTION_CSTS.has(csts.pis ?? '') ? ZERO : round(base.times(rates.pis).div(100), 'amount'),
    cofins: NO_CREDIT_CONTRIBUTION_CSTS.has(csts.cofins ?? '') ? ZERO : round(base.times(rates.cofins).div(100), 'amount'),
  };
}

export function computeLineCost(input: LineCostInput): LineCost {
  const admitted = admittedCredits(input);
  const regime = REGIME_CREDITS[input.taxRegime];
  const rules = ruleSetFor(input.issueDate);

  // A Simples Nacional supplier's stated credit is ICMS the buyer credits like the destacado one
  // (LC 123/2006 art. 23 §1º); it is not ICMS of the operation for the PIS/COFINS base.
  const snCredit = SIMPLES_CREDIT_CSOSNS.has(input.icmsCst ?? '') ? (input.snCredit ?? ZERO) : ZERO;
  const icms = icmsCreditAdmitted(input) ? input.icms.plus(snCredit) : ZERO;
  const ipi = admitted?.ipi && regime.ipi ? input.ipi : ZERO;
  let creditBase = ZERO;
  let pis = ZERO;
  let cofins = ZERO;
  // An import: the importer pays the ICMS and PIS/COFINS-Importação at customs (they are not in the foreign
  // price) with the customs expenses; all go to cost, and what is credited comes out again. The
  // PIS/COFINS credit is the amount paid (Lei 10.865/2004 art. 15 §3º), not a rate over a base.
  const imported = isImportCfop(input.entryCfop);
  const paidAtCustoms = imported
    ? input.icms
        .plus(input.pisPaid ?? ZERO)
        .plus(input.cofinsPaid ?? ZERO)
        .plus(input.customsExpenses ?? ZERO)
    : ZERO;
  if (imported) {
    if (pisCofinsCreditAdmitted(input)) {
      pis = input.pisPaid ?? ZERO;
      cofins = input.cofinsPaid ?? ZERO;
      creditBase = pis.isZero() && cofins.isZero() ? ZERO : (input.pisBase ?? input.total.minus(input.discount));
    }
  } else if (pisCofinsCreditAdmitted(input)) {
    let base = input.total.minus(input.discount).plus(input.freight).plus(input.insurance).plus(input.otherExpenses);
    if (PIS_COFINS_CREDIT_BASE.excludesIcms) base = base.minus(input.icms);
    if (PIS_COFINS_CREDIT_BASE.includesIpi) base = base.plus(input.ipi);
    if (PIS_COFINS_CREDIT_BASE.includesIcmsSt) base = base.plus(input.icmsSt);
    creditBase = Dec.max(base, 0);
    ({ pis, cofins } = pisCofinsCredit(creditBase, input.taxRegime, { pis: input.pisCst, cofins: input.cofinsCst }));
    if (pis.isZero() && cofins.isZero()) creditBase = ZERO;
  }
  // CBS/IBS (2027 on): credited by a buyer outside the Simples Nacional, as far as the document charges them.
  const reform = rules.cbsIbs && admitted?.cbsIbs && input.taxRegime !== 'SIMPLES_NACIONAL';
  const cbs = reform ? (input.chargedCbs ?? ZERO) : ZERO;
  const ibs = reform ? (input.chargedIbs ?? ZERO) : ZERO;
  const costTotal = input.landedTotal
    .plus(paidAtCustoms)
    .minus(icms)
    .minus(ipi)
    .minus(pis)
    .minus(cofins)
    .minus(cbs)
    .minus(ibs)
    .plus(input.apportionedFreight);
  const unitCost = input.stockQuantity.gt(0) ? round(costTotal.div(input.stockQuantity), 'cost') : ZERO;
  return { credits: { icms, pis, cofins, ipi, cbs, ibs }, creditBase, costTotal, unitCost };
}
