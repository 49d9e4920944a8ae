import { EntityManager, In } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { StockBalance } from '../stock';
import { InventoryCountLine } from './entities/inventory-count-line.entity';
import { InventoryCount } from './entities/inventory-count.entity';

export const findCount = (em: EntityManager, companyId: number, id: number) => em.findOneBy(InventoryCount, { id, companyId });

export const linesOf = (em: EntityManager, companyId: number, countId: number) =>
  em.find(InventoryCountLine, { where: { companyId, countId }, order: { lineNumber: 'ASC' } });

/** The count row under a lock (MySQL) while its lines are written: a count entry and a close never interleave. */
export async function lockCount(em: EntityManager, companyId: number, id: number): Promise<InventoryCount | null> {
  const qb = em.createQueryBuilder(InventoryCount, 'c').where('c.id = :id AND c.company_id = :companyId', { id, companyId });
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getOne();
}

/** Current balances of the products at the filial (0 for a product never moved there). */
export async function balancesOf(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
): Promise<Map<number, StockBalance>> {
  if (!productIds.length) return new Map();
  const rows = await em.find(StockBalance, { where: { companyId, filialId, productId: In(productIds) } });
  return new Map(rows.map((r) => [r.productId, r]));
}

/** Products with a balance row at the filial: the default sheet. */
export async function stockedProducts(em: EntityManager, companyId: number, filialId: number): Promise<number[]> {
  const rows = await em.find(StockBalance, { where: { companyId, filialId }, select: { productId: true }, order: { productId: 'ASC' } });
  return rows.map((r) => r.productId);
}
