import { Dec, dec, round, sum } from '../../core/decimal';
import type { EntryDocumentItem, OperationClass } from '../entry-document';
import { returnCfop } from '../fiscal';

/*
 * The arithmetic of a return to the supplier, pure. A line's values and taxes go back in proportion to
 * the quantity returned, to the cent, and telescoping: the share of returns so far is
 * round(whole × (before + now) / received) − round(whole × before / received), so the returns of all
 * of a line add up to exactly what the supplier's NF-e carried, whatever the split.
 */

/** Classes of purchases that can be sent back to the supplier with a devolução de compra. */
export const RETURNABLE_CLASSES: OperationClass[] = [
  'PURCHASE_RESALE',
  'PURCHASE_INPUT',
  'PURCHASE_USE_CONSUMPTION',
  'PURCHASE_FIXED_ASSET',
];

export function share(whole: Dec, received: Dec, before: Dec, now: Dec): Dec {
  if (received.lte(0)) return new Dec(0);
  const upTo = (q: Dec) => round(whole.times(q).div(received), 'amount');
  return upTo(before.plus(now)).minus(upTo(before));
}

/**
 * Our CFOP for sending the line back (fiscal's table, from the entry CFOP the line was booked with):
 * 1102/2102 → 5202/6202, 1403/2403 → 5411/6411, 1551/2551 → 5553/6553…; null when none applies.
 */
export const returnCfopOf = (item: Pick<EntryDocumentItem, 'entryCfop' | 'cfop'>, interstate: boolean): string | null =>
  returnCfop(item.entryCfop ?? item.cfop ?? '', 'PURCHASE', interstate ? 'INTERSTATE' : 'INTERNAL');

export interface ReturnLineValues {
  productsValue: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
  icmsBase: Dec;
  icms: Dec;
  ipiBase: Dec;
  ipi: Dec;
  icmsStBase: Dec;
  icmsSt: Dec;
  total: Dec;
  creditIcms: Dec;
  creditPis: Dec;
  creditCofins: Dec;
  creditIpi: Dec;
  creditCbs: Dec;
  creditIbs: Dec;
}

/** The values of `quantity` of the line, `before` having gone back already (supplier's units). */
export function lineValues(item: EntryDocumentItem, before: Dec, quantity: Dec): ReturnLineValues {
  const part = (whole: Dec | string | null | undefined) => share(dec(whole ?? 0), item.quantity, before, quantity);
  const v = {
    productsValue: part(item.total),
    discount: part(item.discount),
    freight: part(item.freight),
    insurance: part(item.insurance),
    otherExpenses: part(item.otherExpenses),
    icmsBase: part(item.taxes?.icms?.base),
    icms: part(item.taxes?.icms?.value),
    ipiBase: part(item.taxes?.ipi?.base),
    ipi: part(item.ipi),
    icmsStBase: part(item.taxes?.icmsSt?.base),
    icmsSt: part(item.icmsSt),
    creditIcms: part(item.creditIcms),
    creditPis: part(item.creditPis),
    creditCofins: part(item.creditCofins),
    creditIpi: part(item.creditIpi),
    creditCbs: part(item.creditCbs),
    creditIbs: part(item.creditIbs),
  };
  return {
    ...v,
    total: v.productsValue.minus(v.discount).plus(v.freight).plus(v.insurance).plus(v.otherExpenses).plus(v.ipi).plus(v.icmsSt),
  };
}

export const totalsOf = <K extends string>(lines: Record<K, Dec>[], keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, sum(lines.map((l) => l[k]))])) as Record<K, Dec>;
