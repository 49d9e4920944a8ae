import { toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { ProductSummaryRow, Supplier } from '../catalog';
import type { ProductMapEntry } from './entities/product-map-entry.entity';
import type { PurchaseRow } from './product-map.ports';
import type { ItemMatch, ProductSummary, SupplierItem } from './product-match.service';
import type { HistoryRow } from './product-map.service';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const toProductSummaryDto = (p: ProductSummary | ProductSummaryRow) => ({
  id: encodeId('product', p.id),
  code: p.code,
  name: p.name,
  unit: p.unit,
  active: p.active,
});

export const toEntryDto = (e: ProductMapEntry, product?: ProductSummaryRow | null) => ({
  id: encodeId('product-map', e.id),
  supplierDocument: e.supplierDocument,
  supplierProductCode: e.supplierProductCode,
  supplierUnit: e.supplierUnit,
  supplierDescription: e.supplierDescription,
  gtin: e.gtin,
  productId: encodeId('product', e.productId),
  conversionFactor: toJsonNumber(e.conversionFactor, 'factor'),
  lastUsedAt: iso(e.lastUsedAt),
  useCount: e.useCount,
  version: e.version,
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
  ...(product !== undefined ? { product: product ? toProductSummaryDto(product) : null } : {}),
});

export const toMatchItemDto = (item: SupplierItem, m: ItemMatch, index: number) => ({
  index,
  code: item.code,
  status: m.status,
  productId: encodeOptionalId('product', m.productId),
  conversionFactor: toJsonNumber(m.conversionFactor, 'factor'),
  source: m.source,
  mapEntryId: encodeOptionalId('product-map', m.mapEntryId),
  product: m.product ? toProductSummaryDto(m.product) : null,
  suggestions: m.suggestions.map((s) => ({
    productId: encodeId('product', s.productId),
    score: s.score,
    product: toProductSummaryDto(s.product),
  })),
});

export function toMatchDto(supplierDocument: string, items: SupplierItem[], matches: ItemMatch[]) {
  const count = (status: ItemMatch['status']) => matches.filter((m) => m.status === status).length;
  return {
    supplierDocument,
    summary: { total: matches.length, matched: count('MATCHED'), suggested: count('SUGGESTED'), unmatched: count('UNMATCHED') },
    items: matches.map((m, i) => toMatchItemDto(items[i], m, i)),
  };
}

const toPurchaseDto = (p: PurchaseRow) => ({
  entryDocumentId: encodeId('entry-document', p.entryDocumentId),
  entryDocumentItemId: encodeId('entry-document-item', p.entryDocumentItemId),
  number: p.number,
  series: p.series,
  entryDate: p.entryDate,
  productId: encodeOptionalId('product', p.productId),
  unit: p.unit,
  quantity: toJsonNumber(p.quantity, 'quantity'),
  unitPrice: toJsonNumber(p.unitPrice, 'price'),
  conversionFactor: toJsonNumber(p.conversionFactor, 'factor'),
});

export const toHistoryRowDto = (row: HistoryRow) => ({
  ...toEntryDto(row.entry, row.product),
  lastPurchases: row.purchases.map(toPurchaseDto),
});

export const toSupplierRefDto = (s: Supplier | null) =>
  s ? { id: encodeId('supplier', s.id), name: s.name, tradeName: s.tradeName } : null;
