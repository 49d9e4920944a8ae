import { Dec, round } from '../../../core/decimal';
import { entryOperation } from './cfop-table';
import type { NfePurpose, OperationClass, TaxRegime } from './fiscal.types';
import { CLASS_EFFECTS, NO_CREDIT_CONTRIBUTION_CSTS, PIS_COFINS_CREDIT_BASE, PURPOSES, REGIME_CREDITS } from './operation-rules';

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
  credits: { icms: Dec; pis: Dec; cofins: Dec; ipi: Dec };
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

/**
 * Whether the ICMS on what a line brings in is credited: its class admits it, the regime takes it and
 * its entry CFOP's nature allows it. The goods' own ICMS and the ICMS of the CT-e freight apportioned
 * onto the line (LC 87/1996 art. 20: the transport follows the goods it carried) both follow it.
 */
export function icmsCreditAdmitted(input: IcmsCreditInput): boolean {
  const cls = creditClass(input);
  return !!cls && CLASS_EFFECTS[cls].credits.icms && REGIME_CREDITS[input.taxRegime].icms && (entryOperation(input.entryCfop)?.icmsCredit ?? true);
}

export function computeLineCost(input: LineCostInput): LineCost {
  const cls = creditClass(input);
  const admitted = cls ? CLASS_EFFECTS[cls].credits : null;
  const regime = REGIME_CREDITS[input.taxRegime];

  const icms = icmsCreditAdmitted(input) ? input.icms : ZERO;
  const ipi = admitted?.ipi && regime.ipi ? input.ipi : ZERO;
  let creditBase = ZERO;
  let pis = ZERO;
  let cofins = ZERO;
  if (admitted?.pisCofins && regime.pisCofins) {
    let base = input.total.minus(input.discount).plus(input.freight).plus(input.insurance).plus(input.otherExpenses);
    if (PIS_COFINS_CREDIT_BASE.excludesIcms) base = base.minus(input.icms);
    if (PIS_COFINS_CREDIT_BASE.includesIpi) base = base.plus(input.ipi);
    if (PIS_COFINS_CREDIT_BASE.includesIcmsSt) base = base.plus(input.icmsSt);
    creditBase = Dec.max(base, 0);
    if (!NO_CREDIT_CONTRIBUTION_CSTS.has(input.pisCst ?? '')) pis = round(creditBase.times(regime.pisCofins.pis).div(100), 'amount');
    if (!NO_CREDIT_CONTRIBUTION_CSTS.has(input.cofinsCst ?? '')) cofins = round(creditBase.times(regime.pisCofins.cofins).div(100), 'amount');
    if (pis.isZero() && cofins.isZero()) creditBase = ZERO;
  }
  const costTotal = input.landedTotal.minus(icms).minus(ipi).minus(pis).minus(cofins).plus(input.apportionedFreight);
  const unitCost = input.stockQuantity.gt(0) ? round(costTotal.div(input.stockQuantity), 'cost') : ZERO;
  return { credits: { icms, pis, cofins, ipi }, creditBase, costTotal, unitCost };
}
