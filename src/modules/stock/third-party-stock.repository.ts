import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { Dec, toFixed } from '../../core/decimal';
import { ThirdPartyStockBalance } from './entities/third-party-stock-balance.entity';
import { ThirdPartyStockMovement } from './entities/third-party-stock-movement.entity';
import { sqlNow } from '../../core/db/sql-time';

/** SQL of the third-party stock ledger. Every query is scoped by company (and filial). */

export const balanceKey = (productId: number, ownerDocument: string) => `${productId}:${ownerDocument}`;

/**
 * The balances of these (product, owner) pairs, locked for update on MySQL in ascending product order
 * (SQLite transactions are serialized); missing ones are created at zero first.
 */
export async function lockThirdPartyBalances(
  em: EntityManager,
  companyId: number,
  filialId: number,
  keys: { productId: number; ownerDocument: string; ownerSupplierId: number | null }[],
): Promise<Map<string, ThirdPartyStockBalance>> {
  const productIds = [...new Set(keys.map((k) => k.productId))].sort((a, b) => a - b);
  const load = async () => {
    const qb = em
      .createQueryBuilder(ThirdPartyStockBalance, 'b')
      .where('b.company_id = :companyId AND b.filial_id = :filialId AND b.product_id IN (:...productIds)', {
        companyId,
        filialId,
        productIds,
      })
      .orderBy('b.product_id', 'ASC')
      .addOrderBy('b.owner_document', 'ASC');
    if (isMysql) qb.setLock('pessimistic_write');
    return new Map((await qb.getMany()).map((b) => [balanceKey(b.productId, b.ownerDocument), b]));
  };
  if (!productIds.length) return new Map();
  let balances = await load();
  const missing = keys.filter(
    (k, i) =>
      !balances.has(balanceKey(k.productId, k.ownerDocument)) &&
      keys.findIndex((o) => balanceKey(o.productId, o.ownerDocument) === balanceKey(k.productId, k.ownerDocument)) === i,
  );
  if (missing.length) {
    await em
      .createQueryBuilder()
      .insert()
      .into(ThirdPartyStockBalance)
      .values(
        missing.map((k) => ({
          companyId,
          filialId,
          productId: k.productId,
          ownerDocument: k.ownerDocument,
          ownerSupplierId: k.ownerSupplierId,
          quantity: new Dec(0),
          value: new Dec(0),
        })),
      )
      .orIgnore()
      .updateEntity(false)
      .execute();
    balances = await load();
  }
  return balances;
}

export async function readThirdPartyBalances(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
): Promise<Map<string, ThirdPartyStockBalance>> {
  if (!productIds.length) return new Map();
  const rows = await em.findBy(ThirdPartyStockBalance, { companyId, filialId, productId: In([...new Set(productIds)]) });
  return new Map(rows.map((b) => [balanceKey(b.productId, b.ownerDocument), b]));
}

/** New quantity and value of many balances in one statement (the rows are locked). */
export async function writeThirdPartyBalances(
  em: EntityManager,
  companyId: number,
  updates: { id: number; quantity: Dec; value: Dec }[],
): Promise<void> {
  if (!updates.length) return;
  const cases = updates.map(() => 'WHEN ? THEN ?').join(' ');
  await em.query(
    `UPDATE third_party_stock_balance SET quantity = CASE id ${cases} END, value = CASE id ${cases} END, updated_at = ${sqlNow()} WHERE company_id = ? AND id IN (${updates.map(() => '?').join(',')})`,
    [
      ...updates.flatMap((u) => [u.id, toFixed(u.quantity, 'quantity')]),
      ...updates.flatMap((u) => [u.id, toFixed(u.value, 'amount')]),
      companyId,
      ...updates.map((u) => u.id),
    ],
  );
}

export async function insertThirdPartyMovements(em: EntityManager, rows: Partial<ThirdPartyStockMovement>[]): Promise<void> {
  if (rows.length)
    await em
      .createQueryBuilder()
      .insert()
      .into(ThirdPartyStockMovement)
      .values(rows as never)
      .updateEntity(false)
      .execute();
}

export function thirdPartyMovementsByReference(
  em: EntityManager,
  companyId: number,
  referenceType: string,
  referenceId: number,
  reason?: string,
): Promise<ThirdPartyStockMovement[]> {
  return em.find(ThirdPartyStockMovement, {
    where: { companyId, referenceType, referenceId, ...(reason ? { reason } : {}) },
    order: { id: 'ASC' },
  });
}

export interface ThirdPartyBalanceFilters {
  productId?: number;
  ownerDocument?: string;
  /** Only balances with goods held (quantity ≠ 0). */
  held?: boolean;
}

export function thirdPartyBalanceQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: ThirdPartyBalanceFilters,
): SelectQueryBuilder<ThirdPartyStockBalance> {
  const qb = em
    .createQueryBuilder(ThirdPartyStockBalance, 'b')
    .where('b.company_id = :companyId AND b.filial_id = :filialId', { companyId, filialId });
  if (f.productId !== undefined) qb.andWhere('b.product_id = :productId', { productId: f.productId });
  if (f.ownerDocument) qb.andWhere('b.owner_document = :owner', { owner: f.ownerDocument });
  // A text comparison, not arithmetic: zero is stored as exactly '0.0000' on both engines.
  if (f.held) qb.andWhere('b.quantity <> :zero', { zero: '0.0000' });
  return qb;
}

export const thirdPartyBalancesByIds = (em: EntityManager, ids: number[]) => em.findBy(ThirdPartyStockBalance, { id: In(ids) });
