import { Dec } from '../../core/decimal';
import { ValidationError } from '../../core/errors';
import type { EntryDocumentOrigin } from '../entry-document/entities/entry-document.entity';
import type { DraftInput, ItemInput, TaxInput } from '../entry-document/entry-document.types';
import { NFE_PURPOSES, NfePurpose } from '../entry-document/fiscal/fiscal.types';
import type { ItemMatch } from '../product-map/product-match.service';
import type { NfeContribution, NfeIcms, NfeItem, ParsedNfe } from './xml/nfe-types';
import { reliefDeducted } from './xml/totals';

/*
 * ParsedNfe → the entry document draft (SPEC §2 fields). The entry document knows products, freight,
 * insurance, discount, other expenses, IPI and ICMS-ST; the rest of the layout's vNF formula is folded
 * in so that the draft's total equals vNF to the cent:
 *   discount      = vDesc + the ICMS relief the invoice deducts (vICMSDeson)
 *   otherExpenses = vOutro + vII + vIPIDevol (import tax and returned IPI are costs of the purchase)
 *   icmsSt        = vICMSST + vFCPST (the poverty-fund share is paid with the ST)
 * The same folding builds the expected totals from ICMSTot, so a document whose items do not add up
 * to ICMSTot still shows the difference (TOTALS_DIFFER_FROM_XML) and cannot be confirmed.
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
}

export interface DraftOptions {
  filialId: number;
  origin: EntryDocumentOrigin;
  /** Product-map resolution per item, in item order (null: not matched, e.g. invalid issuer document). */
  matches: (ItemMatch | null)[];
  overrides?: ItemOverride[];
  entryDate?: string;
  notes?: string | null;
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
    else if (byLine.has(o.lineNumber)) errors.push({ path: `items[${i}].lineNumber`, message: `line ${o.lineNumber} is given more than once` });
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
      return { lineNumber: item.lineNumber, productId: o.productId, conversionFactor: factor, source: o.productId ? 'REQUEST' : null, ignored: !!o.ignored, saveMapping: !!o.saveMapping, match };
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

/** The relief each item deducts (see totals.ts: the flag when present, else the item's own vICMSDeson). */
function itemRelief(nfe: ParsedNfe): Dec[] {
  const flagged = nfe.items.some((i) => i.taxes.icms?.reliefDeducted !== null && i.taxes.icms?.reliefDeducted !== undefined);
  return nfe.items.map((i) => {
    const icms = i.taxes.icms;
    if (!icms?.reliefValue) return ZERO;
    if (flagged) return icms.reliefDeducted ? icms.reliefValue : ZERO;
    return icms.reliefValue;
  });
}

function toItemInput(item: NfeItem, relief: Dec, r: ItemResolution): ItemInput {
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
    otherExpenses: item.otherExpenses.plus(item.taxes.importTax?.value ?? ZERO).plus(item.taxes.ipiReturned ?? ZERO),
    taxes: {
      icms: icms ? { cst: icmsCst(icms), base: icms.base, rate: icms.rate, value: icms.value } : null,
      icmsSt: st ? { cst: icmsCst(icms), base: icms!.stBase, rate: icms!.stRate, value: st } : null,
      ipi: ipi ? { cst: ipi.cst, base: ipi.base, rate: ipi.rate, value: ipi.value ?? ZERO } : null,
      pis: contribution(item.taxes.pis),
      cofins: contribution(item.taxes.cofins),
    },
    conversionFactor: r.conversionFactor,
    declared: { description: item.description, unit: item.unit, quantity: item.quantity, unitPrice: item.unitPrice, total: item.total, ncm: item.ncm, cfop: item.cfop },
  };
}

/** ICMSTot folded the same way as the items (see the header comment). */
export function expectedTotals(nfe: ParsedNfe): NonNullable<DraftInput['expectedTotals']> {
  const t = nfe.totals;
  return {
    products: t.products,
    freight: t.freight,
    insurance: t.insurance,
    discount: t.discount.plus(reliefDeducted(nfe.items, t)),
    otherExpenses: t.otherExpenses.plus(t.importTax).plus(t.ipiReturned),
    ipi: t.ipi,
    icmsSt: t.icmsSt.plus(t.fcpSt),
    total: t.invoice,
  };
}

/** The draft an import creates, and how each line was resolved. */
export function toDraftInput(nfe: ParsedNfe, opts: DraftOptions): { draft: DraftInput; resolutions: ItemResolution[] } {
  const resolutions = resolveItems(nfe, opts.matches, opts.overrides);
  const relief = itemRelief(nfe);
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
    items: nfe.items.map((item, i) => toItemInput(item, relief[i], resolutions[i])),
    // No cobr/dup: none here; the entry document then plans one payable at the entry date (SPEC §2).
    // A dup without dVenc (optional in the layout) falls due on the issue date.
    installments: installments.length ? installments.map((d, i) => ({ number: i + 1, dueDate: d.dueDate ?? nfe.ide.issuedAt.slice(0, 10), amount: d.amount })) : null,
    expectedTotals: expectedTotals(nfe),
    // finNFe and NFref decide how the lines are booked (a return is not a purchase, 2/3/5/6 post values only).
    purpose: (NFE_PURPOSES as readonly string[]).includes(nfe.ide.purpose ?? '') ? (nfe.ide.purpose as NfePurpose) : '1',
    referencedKeys: nfe.ide.referencedKeys,
  };
  return { draft, resolutions };
}
