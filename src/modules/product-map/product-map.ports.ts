import type { EntityManager } from 'typeorm';
import { definePort } from '../../core/port';

/** One confirmed purchase of a supplier code: a line of an entry document. */
export interface PurchaseRow {
  supplierProductCode: string;
  entryDocumentId: number;
  entryDocumentItemId: number;
  number: string;
  series: string;
  entryDate: string;
  productId: number | null;
  unit: string;
  quantity: string;
  unitPrice: string;
  conversionFactor: string;
}

/**
 * The map's history shows the last purchases of each supplier code. They are entry documents' lines,
 * and entry-document depends on the map (review lines, imports), so the map reads them through this
 * port; entry-document provides it (purchase-history.ts).
 */
export interface PurchaseHistory {
  /** The last `perCode` confirmed purchases of each supplier code at a filial, newest first. */
  lastPurchases(
    em: EntityManager,
    companyId: number,
    filialId: number,
    supplierDocument: string,
    codes: string[],
    perCode: number,
  ): Promise<PurchaseRow[]>;
}
export const purchaseHistory = definePort<PurchaseHistory>('purchaseHistory');
