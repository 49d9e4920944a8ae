import type { EntityManager } from 'typeorm';
import { Dec } from '../../core/decimal';
import type { RetainedStEntry, RetainedStSource } from '../fiscal';
import type { StoredTaxes } from './entities/entry-document-item.entity';

/*
 * What a resale with CST 60 / CSOSN 500 declares as ICMS-ST retained earlier (the fiscal module's port
 * `retainedStSource`, plugged in by src/modules/index.ts): per product, the line of the last confirmed
 * entry at the filial that paid ST — docs/decisions/tax-law-rows.md, row 8b. Entry documents own the
 * SQL over their tables.
 */
export const retainedStProvider: RetainedStSource = {
  async lastEntries(em: EntityManager, companyId: number, filialId: number, productIds: number[], date: string): Promise<RetainedStEntry[]> {
    if (!productIds.length) return [];
    // icms_st > 0: the line paid ST (vICMSST + vFCPST); the latest entry date, then the latest document, wins.
    const rows: Record<string, unknown>[] = await em.query(
      `SELECT x.* FROM (
         SELECT i.product_id AS product_id, d.id AS doc_id, d.number AS number, d.series AS series, d.entry_date AS entry_date,
                d.supplier_document AS supplier_document, i.stock_quantity AS stock_quantity, i.taxes AS taxes,
                ROW_NUMBER() OVER (PARTITION BY i.product_id ORDER BY d.entry_date DESC, d.id DESC, i.id DESC) AS rn
           FROM entry_document d
           JOIN entry_document_item i ON i.company_id = d.company_id AND i.entry_document_id = d.id
          WHERE d.company_id = ? AND d.filial_id = ? AND d.status = 'CONFIRMED' AND d.entry_date <= ?
            AND i.product_id IN (${productIds.map(() => '?').join(',')}) AND i.icms_st > 0 AND i.stock_quantity > 0
       ) x WHERE x.rn = 1`,
      [companyId, filialId, date, ...productIds],
    );
    const out: RetainedStEntry[] = [];
    for (const r of rows) {
      const taxes = (typeof r.taxes === 'string' ? JSON.parse(r.taxes) : r.taxes) as StoredTaxes;
      const st = taxes.icmsSt;
      if (!st?.base || !st.value) continue;
      const fcpValue = st.fcpValue ? new Dec(st.fcpValue) : null;
      const ownIcms = taxes.icms?.value ? new Dec(taxes.icms.value) : null;
      out.push({
        productId: Number(r.product_id),
        entryDocumentId: Number(r.doc_id),
        number: String(r.number),
        series: String(r.series),
        entryDate: dateOnly(r.entry_date),
        supplierDocument: String(r.supplier_document),
        stockQuantity: new Dec(String(r.stock_quantity)),
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
  },
};

/** DATE columns come back as 'YYYY-MM-DD' strings or as Date objects depending on the driver. */
const dateOnly = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
