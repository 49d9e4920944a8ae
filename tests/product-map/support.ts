import { dataSource } from '../../src/core/db/data-source';
import { Dec, DecimalInput } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import type { TestTenant } from '../support/tenant';

export const BASE = '/api/entry-document/product-map';

/** "12345678000195" → "12.345.678/0001-95" (how people type it). */
export const punctuatedCnpj = (d: string) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

/** A map entry written directly (fast, independent of the routes under test). */
export async function makeEntry(
  t: TestTenant,
  values: {
    supplierDocument: string;
    supplierProductCode: string;
    productId: number;
    conversionFactor?: DecimalInput;
    supplierUnit?: string;
    useCount?: number;
  },
): Promise<ProductMapEntry & { hash: string }> {
  const e = await dataSource.manager.save(
    dataSource.manager.create(ProductMapEntry, {
      companyId: t.companyId,
      supplierUnit: 'UN',
      supplierDescription: null,
      gtin: null,
      useCount: 0,
      lastUsedAt: null,
      ...values,
      conversionFactor: new Dec(values.conversionFactor ?? 1),
    }),
  );
  return Object.assign(e, { hash: encodeId('product-map', e.id) });
}
