import type { EntityManager } from 'typeorm';
import { Dec } from '../../core/decimal';
import type { StoredTaxes } from './entities/entry-document-item.entity';
import { lastStLines } from './entry-document.repository';

/*
 * What a resale with CST 60 / CSOSN 500 declares as ICMS-ST retained earlier (the tax engine's loader
 * reads it through this module's front door): per product, the line of the last confirmed entry at the
 * filial that paid ST — docs/decisions/tax-law-rows.md, row 8b. The SQL is the repository's (lastStLines).
 */

/**
 * The ICMS-ST an entry of the goods paid, as the confirmed entry line states it (vBCST, pICMSST, vICMSST,
 * the substitute's own vICMS, the FCP-ST apart), with the line's quantity in the product's stock unit.
 * A resale of those goods with CST 60 / CSOSN 500 declares them again as retained (MOC 7.0 N26–N27d).
 */
export interface RetainedStEntry {
  productId: number;
  entryDocumentId: number;
  number: string;
  series: string;
  entryDate: string;
  supplierDocument: string;
  /** The entry line's quantity in the product's stock unit (its conversion factor applied). */
  stockQuantity: Dec;
  stBase: Dec;
  stRate: Dec | null;
  /** vICMSST without the FCP-ST. */
  stValue: Dec;
  /** The substitute's own ICMS on the goods (vICMS of the entry line); null when the entry states none. */
  substituteIcms: Dec | null;
  fcpBase: Dec | null;
  fcpRate: Dec | null;
  fcpValue: Dec | null;
}

/** Per product, the last confirmed entry at the filial up to `date` whose line paid ICMS-ST (none → absent). */
export async function lastStEntries(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
  date: string,
): Promise<RetainedStEntry[]> {
  if (!productIds.length) return [];
  const rows = await lastStLines(em, companyId, filialId, productIds, date);
  const out: RetainedStEntry[] = [];
  for (const r of rows) {
    const taxes = (typeof r.taxes === 'string' ? JSON.parse(r.taxes) : r.taxes) as StoredTaxes;
    const retained = taxes.icms?.retained;
    const st = taxes.icmsSt;
    const ref = {
      productId: Number(r.product_id),
      entryDocumentId: Number(r.doc_id),
      number: String(r.number),
      series: String(r.series),
      entryDate: dateOnly(r.entry_date),
      supplierDocument: String(r.supplier_document),
      stockQuantity: new Dec(String(r.stock_quantity)),
    };
    if (retained && !(st?.base && st.value)) {
      // Bought from a reseller with CST 60 / CSOSN 500: its declared figures pass on (pST holds the FCP-ST rate, kept apart here).
      const fcpRate = retained.fcpRate ? new Dec(retained.fcpRate) : null;
      out.push({
        ...ref,
        stBase: new Dec(retained.base),
        stRate: retained.rate ? new Dec(retained.rate).minus(fcpRate ?? 0) : null,
        stValue: new Dec(retained.value),
        substituteIcms: retained.substituteValue ? new Dec(retained.substituteValue) : null,
        fcpBase: retained.fcpBase ? new Dec(retained.fcpBase) : null,
        fcpRate,
        fcpValue: retained.fcpValue ? new Dec(retained.fcpValue) : null,
      });
      continue;
    }
    if (!st?.base || !st.value) continue;
    const fcpValue = st.fcpValue ? new Dec(st.fcpValue) : null;
    const ownIcms = taxes.icms?.value ? new Dec(taxes.icms.value) : null;
    out.push({
      ...ref,
      stBase: new Dec(st.base),
      stRate: st.rate ? new Dec(st.rate) : null,
      // The stored ST value carries the FCP-ST with it (it is what the line paid); vICMSSTRet is without it.
      stValue: fcpValue ? new Dec(st.value).minus(fcpValue) : new Dec(st.value),
      substituteIcms: ownIcms && ownIcms.gt(0) ? ownIcms : null,
      fcpBase: st.fcpBase ? new Dec(st.fcpBase) : null,
      fcpRate: st.fcpRate ? new Dec(st.fcpRate) : null,
      fcpValue,
    });
  }
  return out;
}

/** DATE columns come back as 'YYYY-MM-DD' strings or as Date objects depending on the driver. */
const dateOnly = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
