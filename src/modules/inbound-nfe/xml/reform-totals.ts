import { ItemValueConvention, TaxReformRule, taxReformRuleFor } from '../../../core/config/tax-reform';
import { Dec, sum } from '../../../core/decimal';
import type { NfeIbsCbsTotals, NfeItem, ParsedNfe } from '../../fiscal-xml';
import { itemReliefs } from './totals';

/*
 * Reconciliation of the tax-reform values (NT 2025.002, layout PL_010), all of it informative in 2026:
 *   IBSCBSTot = Σ items (W35-10 … W59g-10: vBCIBSCBS, gIBSUF/gIBSMun/gCBS vDif, vDevTrib and values,
 *               vIBS, presumed credit, single-phase, credit reversal), present exactly when an item
 *               has IBSCBS (W34-10/20);
 *   ISTot/vIS = Σ IS/vIS (W31-10/20, W33-10);
 *   vItem     = vProd − vDesc − vICMSDeson (deducted) + vICMSST + vFCPST + vFrete + vSeg + vOutro + vII
 *               + vIPI + vIPIDevol [+ vIBS + vCBS + vIS + vTotIBSMonoItem + vTotCBSMonoItem] (VB01-10);
 *   vNFTot    = Σ vItem (W60-10); with the items as in ICMSTot that is vNF [+ the same taxes].
 * The bracketed taxes are the year's convention question (core/config/tax-reform.ts): VB01-10 leaves
 * them out in 2025 and 2026, real authorized 2026 invoices do both. Sums run over every item (the
 * layout's tax totals are not limited to indTot = 1).
 */

export interface ReformMismatch {
  /** Layout path of the total, e.g. "IBSCBSTot/gIBS/gIBSUF/vIBSUF". */
  field: string;
  items: Dec;
  total: Dec;
}

export interface ItemValueMismatch {
  lineNumber: number;
  itemValue: Dec;
  withoutTaxes: Dec;
  withTaxes: Dec;
}

export interface ReformTotalsCheck {
  /** The document carries any tax-reform group (items or totals). */
  present: boolean;
  /** The rule of the document's year of issue. */
  rule: TaxReformRule;
  year: number;
  ibsCbs: { checked: boolean; ok: boolean; presenceProblem: string | null; mismatches: ReformMismatch[] };
  selectiveTax: { checked: boolean; ok: boolean; presenceProblem: string | null; items: Dec; total: Dec | null };
  /** Items whose vItem follows none of the accepted conventions (items without vItem are not checked). */
  itemValues: { checked: boolean; ok: boolean; mismatches: ItemValueMismatch[]; conventions: ItemValueConvention[] };
  /** vNFTot against vNF (without the taxes) and vNF + the items' taxes (with them), and Σ vItem. */
  invoiceWithTaxes: {
    checked: boolean;
    value: Dec | null;
    withoutTaxes: Dec;
    withTaxes: Dec;
    sumOfItemValues: Dec | null;
    convention: ItemValueConvention | null;
    matches: boolean;
  };
}

const ZERO = new Dec(0);
const or0 = (d: Dec | null | undefined) => d ?? ZERO;

/** IBS + CBS + IS (+ single-phase IBS/CBS) of an item: what "charged" adds and the WITH_TAXES convention counts. */
export function itemReformTaxes(item: NfeItem): Dec {
  const t = item.taxes;
  const g = t.ibsCbs?.general;
  const mono = t.ibsCbs?.singlePhase;
  return or0(g?.ibsValue).plus(or0(g?.cbs.value)).plus(or0(t.selectiveTax?.value)).plus(or0(mono?.ibsTotal)).plus(or0(mono?.cbsTotal));
}

/** vItem by VB01-10 without the reform taxes. */
function itemValueWithoutTaxes(item: NfeItem, relief: Dec): Dec {
  const icms = item.taxes.icms;
  return item.total
    .minus(item.discount)
    .minus(relief)
    .plus(or0(icms?.stValue))
    .plus(or0(icms?.fcpStValue))
    .plus(item.freight)
    .plus(item.insurance)
    .plus(item.otherExpenses)
    .plus(or0(item.taxes.importTax?.value))
    .plus(or0(item.taxes.ipi?.value))
    .plus(or0(item.taxes.ipiReturned));
}

/** Σ over the items of each IBSCBSTot field, next to the declared total (absent groups read as zero). */
function ibsCbsSums(items: NfeItem[], t: NfeIbsCbsTotals | null): ReformMismatch[] {
  const groups = items.map((i) => i.taxes.ibsCbs).filter((g) => g !== null);
  const of = (pick: (g: NonNullable<NfeItem['taxes']['ibsCbs']>) => Dec | null | undefined) => sum(groups.map((g) => or0(pick(g))));
  const rows: [string, Dec, Dec | undefined][] = [
    ['IBSCBSTot/vBCIBSCBS', of((g) => g.general?.base), t?.base],
    ['IBSCBSTot/gIBS/gIBSUF/vDif', of((g) => g.general?.ibsState.deferral?.value), t?.ibs?.state.deferredValue],
    ['IBSCBSTot/gIBS/gIBSUF/vDevTrib', of((g) => g.general?.ibsState.returnedValue), t?.ibs?.state.returnedValue],
    ['IBSCBSTot/gIBS/gIBSUF/vIBSUF', of((g) => g.general?.ibsState.value), t?.ibs?.state.value],
    ['IBSCBSTot/gIBS/gIBSMun/vDif', of((g) => g.general?.ibsMunicipal.deferral?.value), t?.ibs?.municipal.deferredValue],
    ['IBSCBSTot/gIBS/gIBSMun/vDevTrib', of((g) => g.general?.ibsMunicipal.returnedValue), t?.ibs?.municipal.returnedValue],
    ['IBSCBSTot/gIBS/gIBSMun/vIBSMun', of((g) => g.general?.ibsMunicipal.value), t?.ibs?.municipal.value],
    ['IBSCBSTot/gIBS/vIBS', of((g) => g.general?.ibsValue), t?.ibs?.value],
    ['IBSCBSTot/gIBS/vCredPres', of((g) => g.presumedCredit?.ibs?.value), t?.ibs?.presumedCredit],
    ['IBSCBSTot/gIBS/vCredPresCondSus', of((g) => g.presumedCredit?.ibs?.suspendedValue), t?.ibs?.presumedCreditSuspended],
    ['IBSCBSTot/gCBS/vDif', of((g) => g.general?.cbs.deferral?.value), t?.cbs?.deferredValue],
    ['IBSCBSTot/gCBS/vDevTrib', of((g) => g.general?.cbs.returnedValue), t?.cbs?.returnedValue],
    ['IBSCBSTot/gCBS/vCBS', of((g) => g.general?.cbs.value), t?.cbs?.value],
    ['IBSCBSTot/gCBS/vCredPres', of((g) => g.presumedCredit?.cbs?.value), t?.cbs?.presumedCredit],
    ['IBSCBSTot/gCBS/vCredPresCondSus', of((g) => g.presumedCredit?.cbs?.suspendedValue), t?.cbs?.presumedCreditSuspended],
    ['IBSCBSTot/gMono/vIBSMono', of((g) => g.singlePhase?.standard?.ibsValue), t?.singlePhase?.ibsValue],
    ['IBSCBSTot/gMono/vCBSMono', of((g) => g.singlePhase?.standard?.cbsValue), t?.singlePhase?.cbsValue],
    ['IBSCBSTot/gMono/vIBSMonoReten', of((g) => g.singlePhase?.withheld?.ibsValue), t?.singlePhase?.ibsWithheld],
    ['IBSCBSTot/gMono/vCBSMonoReten', of((g) => g.singlePhase?.withheld?.cbsValue), t?.singlePhase?.cbsWithheld],
    ['IBSCBSTot/gMono/vIBSMonoRet', of((g) => g.singlePhase?.previouslyWithheld?.ibsValue), t?.singlePhase?.ibsPreviouslyWithheld],
    ['IBSCBSTot/gMono/vCBSMonoRet', of((g) => g.singlePhase?.previouslyWithheld?.cbsValue), t?.singlePhase?.cbsPreviouslyWithheld],
    ['IBSCBSTot/gEstornoCred/vIBSEstCred', of((g) => g.creditReversal?.ibsValue), t?.creditReversal?.ibsValue],
    ['IBSCBSTot/gEstornoCred/vCBSEstCred', of((g) => g.creditReversal?.cbsValue), t?.creditReversal?.cbsValue],
  ];
  return rows.map(([field, items, total]) => ({ field, items, total: or0(total) })).filter((m) => !m.items.eq(m.total));
}

/** Whether the document carries any tax-reform group. */
export function hasReformGroups(nfe: Pick<ParsedNfe, 'items' | 'totals'>): boolean {
  const t = nfe.totals;
  return (
    !!(t.ibsCbs || t.selectiveTax || t.invoiceWithTaxes) || nfe.items.some((i) => i.taxes.ibsCbs || i.taxes.selectiveTax || i.itemValue)
  );
}

/** The year of issue as the issuer wrote it (dhEmi). */
export const issueYear = (nfe: Pick<ParsedNfe, 'ide'>) => Number(nfe.ide.issuedAt.slice(0, 4));

export function checkReformTotals(
  nfe: Pick<ParsedNfe, 'ide' | 'items' | 'totals'>,
  rules?: Parameters<typeof taxReformRuleFor>[1],
): ReformTotalsCheck {
  const year = issueYear(nfe);
  const rule = taxReformRuleFor(year, rules);
  const { items, totals } = nfe;
  const withIbsCbs = items.some((i) => i.taxes.ibsCbs);
  const withIs = items.some((i) => i.taxes.selectiveTax);

  const ibsCbsPresence =
    totals.ibsCbs && !withIbsCbs
      ? 'IBSCBSTot is given but no item has IBSCBS'
      : !totals.ibsCbs && withIbsCbs
        ? 'Items have IBSCBS but the totals have no IBSCBSTot'
        : null;
  const ibsCbsMismatches = ibsCbsSums(items, totals.ibsCbs);
  const isItems = sum(items.map((i) => or0(i.taxes.selectiveTax?.value)));
  const isPresence =
    totals.selectiveTax && !withIs
      ? 'ISTot is given but no item has IS'
      : !totals.selectiveTax && withIs
        ? 'Items have IS but the totals have no ISTot'
        : null;

  const reliefs = itemReliefs(items);
  const conventions = rule.itemValueConventions;
  const itemMismatches: ItemValueMismatch[] = [];
  items.forEach((item, i) => {
    if (!item.itemValue) return;
    const withoutTaxes = itemValueWithoutTaxes(item, reliefs[i]);
    const withTaxes = withoutTaxes.plus(itemReformTaxes(item));
    const ok =
      (conventions.includes('WITHOUT_TAXES') && item.itemValue.eq(withoutTaxes)) ||
      (conventions.includes('WITH_TAXES') && item.itemValue.eq(withTaxes));
    if (!ok) itemMismatches.push({ lineNumber: item.lineNumber, itemValue: item.itemValue, withoutTaxes, withTaxes });
  });

  const value = totals.invoiceWithTaxes;
  const withoutTaxes = totals.invoice;
  const withTaxes = totals.invoice.plus(sum(items.map(itemReformTaxes)));
  const sumOfItemValues = items.length && items.every((i) => i.itemValue) ? sum(items.map((i) => i.itemValue!)) : null;
  const convention: ItemValueConvention | null = !value
    ? null
    : conventions.includes('WITHOUT_TAXES') && value.eq(withoutTaxes)
      ? 'WITHOUT_TAXES'
      : conventions.includes('WITH_TAXES') && value.eq(withTaxes)
        ? 'WITH_TAXES'
        : null;

  return {
    present: hasReformGroups(nfe),
    rule,
    year,
    ibsCbs: {
      checked: !!totals.ibsCbs || withIbsCbs,
      ok: !ibsCbsPresence && ibsCbsMismatches.length === 0,
      presenceProblem: ibsCbsPresence,
      mismatches: ibsCbsMismatches,
    },
    selectiveTax: {
      checked: !!totals.selectiveTax || withIs,
      ok: !isPresence && !!totals.selectiveTax?.eq(isItems),
      presenceProblem: isPresence,
      items: isItems,
      total: totals.selectiveTax,
    },
    itemValues: { checked: items.some((i) => i.itemValue), ok: itemMismatches.length === 0, mismatches: itemMismatches, conventions },
    invoiceWithTaxes: {
      checked: !!value,
      value,
      withoutTaxes,
      withTaxes,
      sumOfItemValues,
      convention,
      matches: !!value && convention !== null && (sumOfItemValues === null || sumOfItemValues.eq(value)),
    },
  };
}

export type ReformOutcome = 'PASS' | 'FAIL' | 'SKIPPED';

/** The four outcomes, as the validation report gives them (kept with an imported document). */
export function reformOutcomes(
  t: ReformTotalsCheck,
): Record<'ibsCbsTotal' | 'selectiveTaxTotal' | 'itemValues' | 'invoiceWithTaxes', ReformOutcome> {
  const of = (checked: boolean, ok: boolean): ReformOutcome => (!t.present || !checked ? 'SKIPPED' : ok ? 'PASS' : 'FAIL');
  return {
    ibsCbsTotal: of(t.ibsCbs.checked, t.ibsCbs.ok),
    selectiveTaxTotal: of(t.selectiveTax.checked, t.selectiveTax.ok),
    itemValues: of(t.itemValues.checked, t.itemValues.ok),
    invoiceWithTaxes: of(t.invoiceWithTaxes.checked, t.invoiceWithTaxes.matches),
  };
}
