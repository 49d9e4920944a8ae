import { Dec, sum } from '../../../core/decimal';
import type { NfeItem, NfeTotals, ParsedNfe } from '../../fiscal-xml';

/*
 * Totals reconciliation (layout 4.00, MOC rules for total/ICMSTot):
 *   ICMSTot/vProd = Σ det/prod/vProd of items with indTot = 1
 *   vNF = vProd − vDesc − vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol (+ vServ)
 * ICMS relief: since NT 2023.004 an item says with indDeduzDeson whether its vICMSDeson reduces the
 * total; when no item carries the flag (older documents) the whole vICMSDeson is deducted, as the
 * earlier rule did. Fields a 3.10 document does not have read as zero.
 */

export interface ItemSums {
  products: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
  icmsSt: Dec;
  fcpSt: Dec;
  ipi: Dec;
  importTax: Dec;
  ipiReturned: Dec;
}

export interface TotalsCheck {
  itemSums: ItemSums;
  /** Σ vProd (indTot = 1) equals ICMSTot/vProd. */
  productsMatch: boolean;
  /** The per-item charges that differ from their ICMSTot field (vDesc, vFrete, vST, vIPI …). */
  chargeMismatches: { field: keyof ItemSums; items: Dec; total: Dec }[];
  /** The relief amount the formula deducts. */
  reliefDeducted: Dec;
  /** vNF by the layout's formula from the ICMSTot fields. */
  expectedInvoice: Dec;
  invoiceMatches: boolean;
}

const counted = (items: NfeItem[]) => items.filter((i) => i.countsInTotal);

export function sumItems(items: NfeItem[]): ItemSums {
  const all = counted(items);
  const of = (pick: (i: NfeItem) => Dec | null | undefined) => sum(all.map((i) => pick(i) ?? new Dec(0)));
  return {
    products: of((i) => i.total),
    discount: of((i) => i.discount),
    freight: of((i) => i.freight),
    insurance: of((i) => i.insurance),
    otherExpenses: of((i) => i.otherExpenses),
    icmsSt: of((i) => i.taxes.icms?.stValue),
    fcpSt: of((i) => i.taxes.icms?.fcpStValue),
    ipi: of((i) => i.taxes.ipi?.value),
    importTax: of((i) => i.taxes.importTax?.value),
    ipiReturned: of((i) => i.taxes.ipiReturned),
  };
}

/** The relief each item deducts: its vICMSDeson when flagged indDeduzDeson 1, or when no item carries the flag (see the header comment). */
export function itemReliefs(items: NfeItem[]): Dec[] {
  const flagged = items.some((i) => i.taxes.icms?.reliefDeducted !== null && i.taxes.icms?.reliefDeducted !== undefined);
  return items.map((i) => {
    const icms = i.taxes.icms;
    if (!icms?.reliefValue) return new Dec(0);
    if (flagged) return icms.reliefDeducted ? icms.reliefValue : new Dec(0);
    return icms.reliefValue;
  });
}

/** The relief the invoice total deducts (see the header comment). */
export function reliefDeducted(items: NfeItem[], totals: NfeTotals): Dec {
  const flagged = items.some((i) => i.taxes.icms?.reliefDeducted !== null && i.taxes.icms?.reliefDeducted !== undefined);
  if (!flagged) return totals.icmsRelief;
  return sum(items.filter((i) => i.taxes.icms?.reliefDeducted === true).map((i) => i.taxes.icms?.reliefValue ?? new Dec(0)));
}

export function expectedInvoiceTotal(t: NfeTotals, relief: Dec): Dec {
  return t.products
    .minus(t.discount)
    .minus(relief)
    .plus(t.icmsSt)
    .plus(t.fcpSt)
    .plus(t.freight)
    .plus(t.insurance)
    .plus(t.otherExpenses)
    .plus(t.importTax)
    .plus(t.ipi)
    .plus(t.ipiReturned)
    .plus(t.services);
}

const TOTAL_FIELD: Record<keyof ItemSums, keyof NfeTotals> = {
  products: 'products',
  discount: 'discount',
  freight: 'freight',
  insurance: 'insurance',
  otherExpenses: 'otherExpenses',
  icmsSt: 'icmsSt',
  fcpSt: 'fcpSt',
  ipi: 'ipi',
  importTax: 'importTax',
  ipiReturned: 'ipiReturned',
};

export function checkTotals(nfe: Pick<ParsedNfe, 'items' | 'totals'>): TotalsCheck {
  const itemSums = sumItems(nfe.items);
  const relief = reliefDeducted(nfe.items, nfe.totals);
  const expectedInvoice = expectedInvoiceTotal(nfe.totals, relief);
  const chargeMismatches = (Object.keys(TOTAL_FIELD) as (keyof ItemSums)[])
    .filter((f) => f !== 'products')
    .map((field) => ({ field, items: itemSums[field], total: nfe.totals[TOTAL_FIELD[field]] as Dec }))
    .filter((m) => !m.items.eq(m.total));
  return {
    itemSums,
    productsMatch: itemSums.products.eq(nfe.totals.products),
    chargeMismatches,
    reliefDeducted: relief,
    expectedInvoice,
    invoiceMatches: expectedInvoice.eq(nfe.totals.invoice),
  };
}
