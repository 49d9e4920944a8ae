import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { ProductMapEntry } from './entities/product-map-entry.entity';
import { sqlNow } from '../../core/db/sql-time';

/*
 * SQL of the product map. Every query filters by company; lists of keys go in IN lists of a fixed
 * chunk size, so a 990-item match costs a handful of queries whatever its size.
 */

const CHUNK = 1000;

async function inChunks<K, R>(keys: K[], run: (chunk: K[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) out.push(...(await run(keys.slice(i, i + CHUNK))));
  return out;
}

export const productMapRepository = {
  entriesByCodes(em: EntityManager, companyId: number, supplierDocument: string, codes: string[]): Promise<ProductMapEntry[]> {
    return inChunks([...new Set(codes)], (chunk) =>
      em
        .createQueryBuilder(ProductMapEntry, 'e')
        .where('e.company_id = :companyId AND e.supplier_document = :supplierDocument', { companyId, supplierDocument })
        .andWhere('e.supplier_product_code IN (:...chunk)', { chunk })
        .getMany(),
    );
  },

  findEntry(em: EntityManager, companyId: number, id: number, lock = false): Promise<ProductMapEntry | null> {
    const qb = em.createQueryBuilder(ProductMapEntry, 'e').where('e.id = :id AND e.company_id = :companyId', { id, companyId });
    if (lock && isMysql) qb.setLock('pessimistic_write');
    return qb.getOne();
  },

  findEntryByKey(
    em: EntityManager,
    companyId: number,
    supplierDocument: string,
    code: string,
    lock = false,
  ): Promise<ProductMapEntry | null> {
    const qb = em
      .createQueryBuilder(ProductMapEntry, 'e')
      .where('e.company_id = :companyId AND e.supplier_document = :supplierDocument AND e.supplier_product_code = :code', {
        companyId,
        supplierDocument,
        code,
      });
    if (lock && isMysql) qb.setLock('pessimistic_write');
    return qb.getOne();
  },

  /** Increments the use counter of the entries of these codes (integer arithmetic; no decimals in SQL). */
  async recordUse(em: EntityManager, companyId: number, supplierDocument: string, codes: string[]): Promise<number> {
    let affected = 0;
    for (const chunk of chunked([...new Set(codes)])) {
      const res = await em
        .createQueryBuilder()
        .update(ProductMapEntry)
        .set({ useCount: () => 'use_count + 1', lastUsedAt: () => sqlNow(), version: () => 'version' })
        .where('company_id = :companyId AND supplier_document = :supplierDocument AND supplier_product_code IN (:...chunk)', {
          companyId,
          supplierDocument,
          chunk,
        })
        .execute();
      affected += res.affected ?? 0;
    }
    return affected;
  },

  /** The filtered query of a supplier's entries (phase 1 of the history list). */
  supplierEntries(em: EntityManager, companyId: number, supplierDocument: string): SelectQueryBuilder<ProductMapEntry> {
    return em
      .createQueryBuilder(ProductMapEntry, 'e')
      .where('e.company_id = :companyId AND e.supplier_document = :supplierDocument', { companyId, supplierDocument });
  },

  entriesByIds(em: EntityManager, companyId: number, ids: number[]): Promise<ProductMapEntry[]> {
    return em
      .createQueryBuilder(ProductMapEntry, 'e')
      .where('e.company_id = :companyId AND e.id IN (:...ids)', { companyId, ids })
      .getMany();
  },
};

function chunked<T>(keys: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < keys.length; i += CHUNK) out.push(keys.slice(i, i + CHUNK));
  return out;
}
