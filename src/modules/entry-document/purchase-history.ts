import type { EntityManager } from 'typeorm';
import type { PurchaseHistory, PurchaseRow } from '../product-map';

/*
 * What the product map's history shows of entry documents (product-map's port `purchaseHistory`,
 * plugged in by src/modules/index.ts): the map depends on no entry-document file, entry documents own
 * the SQL over their tables.
 */
export const purchaseHistoryProvider: PurchaseHistory = {
  /**
   * The last `perCode` confirmed purchases of each supplier code at a filial, newest first, in one
   * query (window function over the supplier's confirmed entry documents).
   */
  async lastPurchases(
    em: EntityManager,
    companyId: number,
    filialId: number,
    supplierDocument: string,
    codes: string[],
    perCode: number,
  ): Promise<PurchaseRow[]> {
    if (!codes.length || perCode <= 0) return [];
    const rows: Record<string, unknown>[] = await em.query(
      `SELECT x.* FROM (
         SELECT i.supplier_product_code AS code, d.id AS doc_id, i.id AS item_id, d.number AS number, d.series AS series,
                d.entry_date AS entry_date, i.product_id AS product_id, i.unit AS unit, i.quantity AS quantity,
                i.unit_price AS unit_price, i.conversion_factor AS conversion_factor,
                ROW_NUMBER() OVER (PARTITION BY i.supplier_product_code ORDER BY d.entry_date DESC, d.id DESC, i.id DESC) AS rn
           FROM entry_document d
           JOIN entry_document_item i ON i.company_id = d.company_id AND i.entry_document_id = d.id
          WHERE d.company_id = ? AND d.filial_id = ? AND d.supplier_document = ? AND d.status = 'CONFIRMED'
            AND i.supplier_product_code IN (${codes.map(() => '?').join(',')})
       ) x WHERE x.rn <= ? ORDER BY x.code, x.rn`,
      [companyId, filialId, supplierDocument, ...codes, perCode],
    );
    return rows.map((r) => ({
      supplierProductCode: String(r.code),
      entryDocumentId: Number(r.doc_id),
      entryDocumentItemId: Number(r.item_id),
      number: String(r.number),
      series: String(r.series),
      entryDate: dateOnly(r.entry_date),
      productId: r.product_id === null ? null : Number(r.product_id),
      unit: String(r.unit),
      quantity: String(r.quantity),
      unitPrice: String(r.unit_price),
      conversionFactor: String(r.conversion_factor),
    }));
  },
};

/** DATE columns come back as 'YYYY-MM-DD' strings or as Date objects depending on the driver. */
const dateOnly = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
