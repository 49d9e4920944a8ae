import type { TaxReformRule } from '../../core/config/tax-reform';
import { Dec, sum } from '../../core/decimal';
import { ValidationError } from '../../core/errors';
import type { DraftInput, EntryDocumentOrigin, ItemInput, ReformTaxBlock, ReformTaxValue, TaxInput } from '../entry-document';
import { NFE_PURPOSES, NfePurpose } from '../entry-document';
import type { ItemMatch } from '../product-map';
import type { NfeContribution, NfeIcms, NfeItem, ParsedNfe } from '../fiscal-xml';
import { checkReformTotals, itemReformTaxes, ReformTotalsCheck, reformOutcomes } from './xml/reform-totals';
import { itemReliefs, reliefDeducted } from './xml/totals';

/*
 * ParsedNfe → the entry document draft (SPEC §2 fields). The entry document knows products, freight,
 * insurance, discount, other expenses, IPI and ICMS-ST; the rest of the layout's vNF formula is folded
 * in so that the draft's total equals vNF to the cent:
 *   discount      = vDesc + the ICMS relief the invoice deducts (vICMSDeson)
 *   otherExpenses = vOutro + vII + vIPIDevol (import tax and returned IPI are costs of the purchase)
 *   icmsSt        = vICMSST + vFCPST (the poverty-fund share is paid with the ST)
 * The same folding builds the expected totals from ICMSTot, so a document whose items do not add up
 * to ICMSTot still shows the difference (TOTALS_DIFFER_FROM_XML) and cannot be confirmed.
 *
 * Tax reform (PL_010): each line keeps its IBSCBS, IS, vItem and DFeReferenciado, the document its
 * header fields, IBSCBSTot/ISTot/vNFTot and the outcome of their checks, as exact decimal strings.
 * Whether IBS/CBS/IS count is the rule of the year of issue (core/config/tax-reform.ts): informative
 * in 2026; a `charged` rule adds each line's IBS + CBS + IS to its other expenses and expects vNFTot.
 */

export interface ItemOverride {
  lineNumber: number;
  /** null: import the line without product (PENDING). */
  productId?: number | null;
  conversionFactor?: Dec;
  /** Save (productId, conversionFactor) as the supplier's map entry for this code. */
  saveMapping?: boolean;
  /** Keep the line on the document without posting stock. */
  ignored?: boolean;
}

export type ResolutionSource = 'MAP' | 'GTIN' | 'REQUEST' | null;

/** How one line got (or did not get) its product. */
export interface ItemResolution {
  lineNumber: number;
  productId: number | null;
  conversionFactor: Dec;
  source: ResolutionSource;
  ignored: boolean;
  saveMapping: boolean;
  match: ItemMatch | null;
  /** The purchase-order line the import linked (set by linkToPurchaseOrders). */
  purchaseOrderLink?: { purchaseOrderItemId: number | null; source: 'ORDER_REFERENCE' | 'OPEN_LINE' | null };
}

export interface DraftOptions {
  filialId: number;
  origin: EntryDocumentOrigin;
  /** Product-map resolution per item, in item order (null: not matched, e.g. invalid issuer document). */
  matches: (ItemMatch | null)[];
  overrides?: ItemOverride[];
  entryDate?: string;
  notes?: string | null;
  /** Replaces the configured tax-reform rules (tests). */
  taxReformRules?: readonly TaxReformRule[];
}

const ZERO = new Dec(0);
const MAX_NOTES = 2000;

/** Overrides by line, refusing lines the invoice does not have and lines given twice. */
function overridesByLine(nfe: ParsedNfe, overrides: ItemOverride[] = []): Map<number, ItemOverride> {
  const lines = new Set(nfe.items.map((i) => i.lineNumber));
  const errors: { path: string; message: string }[] = [];
  const byLine = new Map<number, ItemOverride>();
  overrides.forEach((o, i) => {
    if (!lines.has(o.lineNumber)) errors.push({ path: `items[${i}].lineNumber`, message: `the invoice has no line ${o.lineNumber}` });
    else if (byLine.has(o.lineNumber))
      errors.push({ path: `items[${i}].lineNumber`, message: `line ${o.lineNumber} is given more than once` });
    else byLine.set(o.lineNumber, o);
    if (o.saveMapping && !o.productId) errors.push({ path: `items[${i}].saveMapping`, message: 'saveMapping needs a productId' });
  });
  if (errors.length) throw new ValidationError('Invalid request', errors);
  return byLine;
}

export function resolveItems(nfe: ParsedNfe, matches: (ItemMatch | null)[], overrides?: ItemOverride[]): ItemResolution[] {
  const byLine = overridesByLine(nfe, overrides);
  return nfe.items.map((item, i) => {
    const match = matches[i] ?? null;
    const o = byLine.get(item.lineNumber);
    const matched = match?.status === 'MATCHED' && match.productId ? match : null;
    if (o && o.productId !== undefined) {
      const sameAsMatch = matched && matched.productId === o.productId;
      const factor = o.conversionFactor ?? (sameAsMatch ? matched.conversionFactor : null) ?? new Dec(1);
      return {
        lineNumber: item.lineNumber,
        productId: o.productId,
        conversionFactor: factor,
        source: o.productId ? 'REQUEST' : null,
        ignored: !!o.ignored,
        saveMapping: !!o.saveMapping,
        match,
      };
    }
    return {
      lineNumber: item.lineNumber,
      productId: matched?.productId ?? null,
      conversionFactor: o?.conversionFactor ?? matched?.conversionFactor ?? new Dec(1),
      source: matched ? (matched.source as ResolutionSource) : null,
      ignored: !!o?.ignored,
      saveMapping: !!o?.saveMapping,
      match,
    };
  });
}

const icmsCst = (icms: NfeIcms | null) => icms?.cst ?? icms?.csosn ?? null;

function contribution(c: NfeContribution | null): TaxInput | null {
  return c ? { cst: c.cst, base: c.base, rate: c.rate, value: c.value } : null;
}

/** A parsed group as stored: every Dec as its exact decimal string, the rest as read. */
function stored(value: unknown): ReformTaxValue {
  if (value instanceof Dec) return value.toFixed();
  if (Array.isArray(value)) return value.map(stored);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stored(v)]));
  return (value ?? null) as ReformTaxValue;
}

/** The line's tax-reform block (null when it has none of the groups). */
function itemReformBlock(item: NfeItem): ReformTaxBlock | null {
  const { ibsCbs, selectiveTax } = item.taxes;
  if (!ibsCbs && !selectiveTax && !item.itemValue && !item.referencedDocument) return null;
  return stored({ ibsCbs, selectiveTax, itemValue: item.itemValue, referencedDocument: item.referencedDocument }) as ReformTaxBlock;
}

/** The document's tax-reform block: header fields, totals, the year's rule and the checks' outcomes (null for a document without them). */
function documentReformBlock(nfe: ParsedNfe, t: ReformTotalsCheck): ReformTaxBlock | null {
  const ide = nfe.ide;
  const reformHeader =
    !!(ide.ibsCbsMunicipality || ide.debitNoteType || ide.creditNoteType || ide.governmentPurchase || ide.advancePaymentKeys.length) ||
    ide.purpose === '5' ||
    ide.purpose === '6';
  if (!t.present && !reformHeader) return null;
  return stored({
    purpose: ide.purpose,
    debitNoteType: ide.debitNoteType,
    creditNoteType: ide.creditNoteType,
    ibsCbsMunicipality: ide.ibsCbsMunicipality,
    governmentPurchase: ide.governmentPurchase,
    advancePaymentKeys: ide.advancePaymentKeys,
    totals: { ibsCbs: nfe.totals.ibsCbs, selectiveTax: nfe.totals.selectiveTax, invoiceWithTaxes: nfe.totals.invoiceWithTaxes },
    /** IBS + CBS + IS of the items: what a `charged` rule adds to the document. */
    itemTaxes: sum(nfe.items.map(itemReformTaxes)),
    rule: { year: t.year, fromYear: t.rule.fromYear, charged: t.rule.charged, itemValueConventions: t.rule.itemValueConventions },
    checks: { ...reformOutcomes(t), invoiceTotalConvention: t.invoiceWithTaxes.convention },
  }) as ReformTaxBlock;
}

function toItemInput(item: NfeItem, relief: Dec, r: ItemResolution, charged: boolean): ItemInput {
  const icms = item.taxes.icms;
  const st = icms && (icms.stValue || icms.fcpStValue) ? (icms.stValue ?? ZERO).plus(icms.fcpStValue ?? ZERO) : null;
  const ipi = item.taxes.ipi;
  return {
    productId: r.productId,
    ignored: r.ignored,
    supplierProductCode: item.code,
    description: item.description,
    ncm: item.ncm,
    cfop: item.cfop,
    unit: item.unit,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    discount: item.discount.plus(relief),
    freight: item.freight,
    insurance: item.insurance,
    // II and the customs expenses (vDespAdu, IOF, AFRMM) are the importer's cost, not the invoice's other
    // expenses: they go to cost and stay out of the foreign supplier's payable (Lei 10.865/2004; SPEC §2).
    otherExpenses: item.otherExpenses.plus(item.taxes.ipiReturned ?? ZERO).plus(charged ? itemReformTaxes(item) : ZERO),
    ...(item.taxes.importTax || item.importAfrmm.gt(0)
      ? {
          importDuty: item.taxes.importTax?.value ?? ZERO,
          customsExpenses: (item.taxes.importTax?.customsExpenses ?? ZERO).plus(item.taxes.importTax?.iof ?? ZERO).plus(item.importAfrmm),
        }
      : {}),
    taxes: {
      icms: icms
        ? {
            cst: icmsCst(icms),
            base: icms.base,
            rate: icms.rate,
            value: icms.value,
            // A Simples Nacional issuer's creditable ICMS (CSOSN 101/201/900; LC 123/2006 art. 23 §1º).
            ...(icms.snCreditValue ? { snCreditRate: icms.snCreditRate, snCreditValue: icms.snCreditValue } : {}),
            // Goods bought with CST 60 / CSOSN 500: the ST retained earlier, declared again when they are resold.
            ...(icms.stRetainedBase && icms.stRetainedValue
              ? {
                  retained: {
                    base: icms.stRetainedBase,
                    rate: icms.stRetainedRate,
                    substituteValue: icms.stRetainedSubstitute,
                    value: icms.stRetainedValue,
                    fcpBase: icms.fcpStRetainedBase,
                    fcpRate: icms.fcpStRetainedRate,
                    fcpValue: icms.fcpStRetainedValue,
                  },
                }
              : {}),
          }
        : null,
      icmsSt: st
        ? {
            cst: icmsCst(icms),
            base: icms!.stBase,
            rate: icms!.stRate,
            value: st,
            // The FCP-ST apart, so a resale of these goods can declare it as retained (vFCPSTRet).
            ...(icms!.fcpStValue ? { fcpBase: icms!.fcpStBase, fcpRate: icms!.fcpStRate, fcpValue: icms!.fcpStValue } : {}),
          }
        : null,
      ipi: ipi ? { cst: ipi.cst, base: ipi.base, rate: ipi.rate, value: ipi.value ?? ZERO } : null,
      pis: contribution(item.taxes.pis),
      cofins: contribution(item.taxes.cofins),
    },
    conversionFactor: r.conversionFactor,
    declared: {
      description: item.description,
      unit: item.unit,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      total: item.total,
      ncm: item.ncm,
      cfop: item.cfop,
    },
    reformTaxes: itemReformBlock(item),
  };
}

/**
 * ICMSTot folded the same way as the items (see the header comment); under a `charged` rule the
 * items' IBS + CBS + IS join other expenses and the total is vNFTot (vNF plus them when absent).
 */
export function expectedTotals(nfe: ParsedNfe, charged = false): NonNullable<DraftInput['expectedTotals']> {
  const t = nfe.totals;
  const reformTaxes = charged ? sum(nfe.items.map(itemReformTaxes)) : ZERO;
  return {
    products: t.products,
    freight: t.freight,
    insurance: t.insurance,
    discount: t.discount.plus(reliefDeducted(nfe.items, t)),
    otherExpenses: t.otherExpenses.plus(t.ipiReturned).plus(reformTaxes),
    ipi: t.ipi,
    icmsSt: t.icmsSt.plus(t.fcpSt),
    total: charged ? (t.invoiceWithTaxes ?? t.invoice.plus(reformTaxes)) : t.invoice,
  };
}

/** The draft an import creates, and how each line was resolved. */
export function toDraftInput(nfe: ParsedNfe, opts: DraftOptions): { draft: DraftInput; resolutions: ItemResolution[] } {
  const resolutions = resolveItems(nfe, opts.matches, opts.overrides);
  const relief = itemReliefs(nfe.items);
  const reform = checkReformTotals(nfe, opts.taxReformRules);
  const charged = reform.present && reform.rule.charged;
  const installments = nfe.billing?.installments ?? [];
  const complementary = nfe.additionalInfo?.complementary ?? null;
  const draft: DraftInput = {
    filialId: opts.filialId,
    origin: opts.origin,
    model: nfe.ide.model,
    series: nfe.ide.series,
    number: nfe.ide.number,
    accessKey: nfe.accessKey,
    // The calendar date as the issuer wrote it (dhEmi carries the issuer's offset).
    issueDate: nfe.ide.issuedAt.slice(0, 10),
    ...(opts.entryDate ? { entryDate: opts.entryDate } : {}),
    operationNature: nfe.ide.operationNature?.slice(0, 60) ?? null,
    notes: opts.notes !== undefined ? opts.notes : complementary ? complementary.slice(0, MAX_NOTES) : null,
    supplier: {
      document: nfe.issuer.document ?? '',
      name: (nfe.issuer.name ?? nfe.issuer.document ?? '').slice(0, 150),
      stateRegistration: nfe.issuer.stateRegistration?.slice(0, 20) ?? null,
      uf: nfe.issuer.uf,
    },
    items: nfe.items.map((item, i) => toItemInput(item, relief[i], resolutions[i], charged)),
    // No cobr/dup: none here; the entry document then plans one payable at the entry date (SPEC §2).
    // A dup without dVenc (optional in the layout) falls due on the issue date.
    installments: installments.length
      ? installments.map((d, i) => ({ number: i + 1, dueDate: d.dueDate ?? nfe.ide.issuedAt.slice(0, 10), amount: d.amount }))
      : null,
    expectedTotals: expectedTotals(nfe, charged),
    reformTaxes: documentReformBlock(nfe, reform),
    // finNFe and NFref decide how the lines are booked (a return is not a purchase, 2/3/5/6 post values only).
    purpose: (NFE_PURPOSES as readonly string[]).includes(nfe.ide.purpose ?? '') ? (nfe.ide.purpose as NfePurpose) : '1',
    referencedKeys: nfe.ide.referencedKeys,
  };
  return { draft, resolutions };
}
