import type { EntityManager } from 'typeorm';
import { Product } from './entities/product.entity';
import { Supplier } from './entities/supplier.entity';

/*
 * The product columns other modules show and compare (the product map's matching and history), read by
 * the module that owns the table. Lists of ids or GTINs go in IN lists of a fixed chunk size, so a
 * 990-item document costs a handful of queries whatever its size.
 */

/** The product columns a summary carries (not the whole row). */
export type ProductSummaryRow = Pick<Product, 'id' | 'code' | 'name' | 'unit' | 'gtin' | 'active'>;
const SUMMARY_COLUMNS = ['p.id', 'p.code', 'p.name', 'p.unit', 'p.gtin', 'p.active'];
const CHUNK = 1000;

async function inChunks<K, R>(keys: K[], run: (chunk: K[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += CHUNK) out.push(...(await run(unique.slice(i, i + CHUNK))));
  return out;
}

export const productSummaries = {
  /** Summaries of the company's products with these ids, active or not. */
  byIds(em: EntityManager, companyId: number, ids: number[]): Promise<ProductSummaryRow[]> {
    return inChunks(ids, (chunk) =>
      em
        .createQueryBuilder(Product, 'p')
        .select(SUMMARY_COLUMNS)
        .where('p.company_id = :companyId AND p.id IN (:...chunk)', { companyId, chunk })
        .getMany(),
    );
  },

  /** Active products carrying one of these GTINs, oldest first. */
  activeByGtins(em: EntityManager, companyId: number, gtins: string[]): Promise<ProductSummaryRow[]> {
    return inChunks(gtins, (chunk) =>
      em
        .createQueryBuilder(Product, 'p')
        .select(SUMMARY_COLUMNS)
        .where('p.company_id = :companyId AND p.gtin IN (:...chunk) AND p.active = :active', { companyId, chunk, active: true })
        .orderBy('p.id', 'ASC')
        .getMany(),
    );
  },

  /** Active products with their names, for similarity ranking (raw rows: no entity hydration). */
  activeByIds(em: EntityManager, companyId: number, ids: number[]): Promise<ProductSummaryRow[]> {
    return inChunks(ids, async (chunk) => {
      const rows: { id: number; code: string; name: string; unit: string; gtin: string | null }[] = await em.query(
        `SELECT id, code, name, unit, gtin FROM product WHERE company_id = ? AND active = ? AND id IN (${chunk.map(() => '?').join(',')})`,
        [companyId, true, ...chunk],
      );
      return rows.map((r) => ({ id: Number(r.id), code: r.code, name: r.name, unit: r.unit, gtin: r.gtin, active: true }));
    });
  },
};

/** The company's supplier with this CNPJ/CPF, if registered. */
export function supplierByDocument(em: EntityManager, companyId: number, document: string): Promise<Supplier | null> {
  return em.findOneBy(Supplier, { companyId, document });
}
