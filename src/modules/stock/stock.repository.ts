import { EntityManager, In } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { deferWrite } from '../../core/db/transaction';
import { Dec, dec, toFixed } from '../../core/decimal';
import { StockBalance } from './entities/stock-balance.entity';
import { StockMovement } from './entities/stock-movement.entity';
import { sqlNow } from '../../core/db/sql-time';

export interface LockedBalance {
  id: number;
  productId: number;
  quantity: Dec;
  averageCost: Dec;
}

/**
 * Balances already locked in a transaction, by its manager: held until it ends and changed only by
 * the ledger (which updates these objects), so a second lockBalances of the same rows needs no
 * round trip. A fulfilment locks its balances side by side with another statement, then posts.
 */
const lockedInTransaction = new WeakMap<EntityManager, Map<string, LockedBalance>>();

/**
 * Balances of the given products, locked for update in ascending product order on MySQL (SQLite
 * transactions are already serialized). Missing balances are created at zero first (unless
 * `createMissing` is false: a lock taken ahead, before the products are known to exist), so the
 * caller always gets one locked row per product.
 */
export async function lockBalances(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
  options: { createMissing?: boolean } = {},
): Promise<Map<number, LockedBalance>> {
  const inTransaction = em.queryRunner?.isTransactionActive === true;
  let locked = lockedInTransaction.get(em);
  if (!locked && inTransaction) lockedInTransaction.set(em, (locked = new Map<string, LockedBalance>()));
  const keyOf = (productId: number) => `${companyId}:${filialId}:${productId}`;
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  // Plain SQL on the hottest path of every sale: no query builder, no entity hydration.
  const load = async (which: number[]): Promise<void> => {
    const rows: { id: number; product_id: number; quantity: string | number; average_cost: string | number }[] = await em.query(
      `SELECT id, product_id, quantity, average_cost FROM stock_balance WHERE company_id = ? AND filial_id = ? AND product_id IN (${which.map(() => '?').join(',')}) ORDER BY product_id${isMysql ? ' FOR UPDATE' : ''}`,
      [companyId, filialId, ...which],
    );
    for (const r of rows) {
      const balance = { id: Number(r.id), productId: Number(r.product_id), quantity: dec(r.quantity), averageCost: dec(r.average_cost) };
      byProduct.set(balance.productId, balance);
      locked?.set(keyOf(balance.productId), balance);
    }
  };
  const byProduct = new Map<number, LockedBalance>();
  for (const id of ids) {
    const known = locked?.get(keyOf(id));
    if (known) byProduct.set(id, known);
  }
  const unknown = ids.filter((id) => !byProduct.has(id));
  if (unknown.length) await load(unknown);
  const missing = ids.filter((id) => !byProduct.has(id));
  if (missing.length && options.createMissing !== false) {
    await em
      .createQueryBuilder()
      .insert()
      .into(StockBalance)
      .values(missing.map((productId) => ({ companyId, filialId, productId, quantity: new Dec(0), averageCost: new Dec(0) })))
      .orIgnore()
      .updateEntity(false)
      .execute();
    await load(missing);
  }
  return byProduct;
}

/**
 * Locks ahead, before the caller knows them, the existing balances of the products and filial its own
 * subqueries select (a fulfilment: its lines' products in its order's filial, sent with the lock of the
 * order): they join the transaction's locked balances, so lockBalances answers them without a round
 * trip. Balances not found are left to lockBalances. Same lock order as lockBalances (product ascending).
 */
export async function lockBalancesSelected(
  em: EntityManager,
  companyId: number,
  filial: { sql: string; params: unknown[] },
  products: { sql: string; params: unknown[] },
): Promise<void> {
  if (em.queryRunner?.isTransactionActive !== true) return;
  let locked = lockedInTransaction.get(em);
  if (!locked) lockedInTransaction.set(em, (locked = new Map<string, LockedBalance>()));
  const rows: { id: number; filial_id: number; product_id: number; quantity: string | number; average_cost: string | number }[] =
    await em.query(
      `SELECT id, filial_id, product_id, quantity, average_cost FROM stock_balance WHERE company_id = ? AND filial_id = (${filial.sql}) AND product_id IN (${products.sql}) ORDER BY product_id${isMysql ? ' FOR UPDATE' : ''}`,
      [companyId, ...filial.params, ...products.params],
    );
  for (const r of rows) {
    const key = `${companyId}:${Number(r.filial_id)}:${Number(r.product_id)}`;
    if (!locked.has(key))
      locked.set(key, { id: Number(r.id), productId: Number(r.product_id), quantity: dec(r.quantity), averageCost: dec(r.average_cost) });
  }
}

/** Reads balances without locking (previews, lists). */
export async function readBalances(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
): Promise<Map<number, StockBalance>> {
  if (!productIds.length) return new Map();
  const rows = await em.findBy(StockBalance, { companyId, filialId, productId: In([...new Set(productIds)]) });
  return new Map(rows.map((b) => [b.productId, b]));
}

/** Writes new quantity/average cost of many balances in one statement (sent with the next one: the rows are locked). */
export async function deferBalanceWrites(
  em: EntityManager,
  companyId: number,
  filialId: number,
  updates: { id: number; quantity: Dec; averageCost: Dec }[],
): Promise<void> {
  if (!updates.length) return;
  const qtyCases = updates.map(() => 'WHEN ? THEN ?').join(' ');
  const costCases = updates.map(() => 'WHEN ? THEN ?').join(' ');
  const params: unknown[] = [
    ...updates.flatMap((u) => [u.id, toFixed(u.quantity, 4)]),
    ...updates.flatMap((u) => [u.id, toFixed(u.averageCost, 10)]),
    companyId,
    filialId,
    ...updates.map((u) => u.id),
  ];
  await deferWrite(em, {
    label: 'stock balances',
    sql: `UPDATE stock_balance SET quantity = CASE id ${qtyCases} END, average_cost = CASE id ${costCases} END, updated_at = ${sqlNow()} WHERE company_id = ? AND filial_id = ? AND id IN (${updates.map(() => '?').join(',')})`,
    params,
  });
}

/** A posted movement as a reversal needs it: the state it left, and the average cost before it. */
export interface MovementState {
  balanceAfter: Dec;
  averageCostAfter: Dec;
  /** The average after the product's previous movement in the filial; null when it was the first. */
  averageCostBefore: Dec | null;
}

/**
 * Movements by id with the average cost that held before each (the previous movement of the product
 * in the filial: balances change only through the ledger, so movements carry every average), in one
 * query on the (company, filial, product, id) index.
 */
export async function movementStates(em: EntityManager, companyId: number, movementIds: number[]): Promise<Map<number, MovementState>> {
  const ids = [...new Set(movementIds)];
  if (!ids.length) return new Map();
  const rows: {
    id: number;
    balance_after: string | number;
    average_cost_after: string | number;
    average_cost_before: string | number | null;
  }[] = await em.query(
    `SELECT m.id, m.balance_after, m.average_cost_after,
       (SELECT p.average_cost_after FROM stock_movement p
         WHERE p.company_id = m.company_id AND p.filial_id = m.filial_id AND p.product_id = m.product_id AND p.id < m.id
         ORDER BY p.id DESC LIMIT 1) AS average_cost_before
     FROM stock_movement m WHERE m.company_id = ? AND m.id IN (${ids.map(() => '?').join(',')})`,
    [companyId, ...ids],
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        balanceAfter: dec(r.balance_after),
        averageCostAfter: dec(r.average_cost_after),
        averageCostBefore: r.average_cost_before === null ? null : dec(r.average_cost_before),
      },
    ]),
  );
}

const MOVEMENT_COLUMNS = [
  'company_id',
  'filial_id',
  'product_id',
  'direction',
  'reason',
  'quantity',
  'unit_cost',
  'balance_after',
  'average_cost_after',
  'value_adjustment',
  'reference_type',
  'reference_id',
  'reference_line_id',
  'actor',
];

export interface MovementRow {
  companyId: number;
  filialId: number;
  productId: number;
  direction: StockMovement['direction'];
  reason: string;
  quantity: Dec;
  unitCost: Dec;
  balanceAfter: Dec;
  averageCostAfter: Dec;
  /** Value-only movements: the amount (absolute); absent → 0. */
  valueAdjustment?: Dec;
  referenceType: string;
  referenceId: number;
  referenceLineId: number | null;
  actor: string | null;
}

/** All movements of a posting in one INSERT (created_at from the column default), sent with the next statement. */
export async function deferInsertMovements(em: EntityManager, rows: MovementRow[]): Promise<void> {
  if (!rows.length) return;
  const tuple = `(${MOVEMENT_COLUMNS.map(() => '?').join(',')})`;
  await deferWrite(em, {
    label: 'stock movements',
    sql: `INSERT INTO stock_movement (${MOVEMENT_COLUMNS.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
    params: rows.flatMap((r) => [
      r.companyId,
      r.filialId,
      r.productId,
      r.direction,
      r.reason,
      toFixed(r.quantity, 'quantity'),
      toFixed(r.unitCost, 'cost'),
      toFixed(r.balanceAfter, 'quantity'),
      toFixed(r.averageCostAfter, 'cost'),
      toFixed(r.valueAdjustment ?? 0, 'amount'),
      r.referenceType,
      r.referenceId,
      r.referenceLineId,
      r.actor,
    ]),
  });
}

export interface StockMismatch {
  companyId: number;
  filialId: number;
  productId: number;
  balance: string;
  movementsSum: string;
}

/** Every balance against the sum of its movements (and movements without a balance). */
export async function findStockMismatches(em: EntityManager, companyId?: number): Promise<StockMismatch[]> {
  const where = companyId ? 'WHERE company_id = ?' : '';
  const params = companyId ? [companyId] : [];
  const sums: { company_id: number; filial_id: number; product_id: number; total: string | number }[] = await em.query(
    `SELECT company_id, filial_id, product_id, SUM(quantity) AS total FROM stock_movement ${where} GROUP BY company_id, filial_id, product_id`,
    params,
  );
  const balances: { company_id: number; filial_id: number; product_id: number; quantity: string | number }[] = await em.query(
    `SELECT company_id, filial_id, product_id, quantity FROM stock_balance ${where}`,
    params,
  );
  const key = (r: { company_id: number; filial_id: number; product_id: number }) => `${r.company_id}:${r.filial_id}:${r.product_id}`;
  const sumByKey = new Map(sums.map((s) => [key(s), toFixed(s.total ?? 0, 4)]));
  const mismatches: StockMismatch[] = [];
  const seen = new Set<string>();
  for (const b of balances) {
    const k = key(b);
    seen.add(k);
    const balance = toFixed(b.quantity, 4);
    const movementsSum = sumByKey.get(k) ?? toFixed(0, 4);
    if (balance !== movementsSum)
      mismatches.push({
        companyId: Number(b.company_id),
        filialId: Number(b.filial_id),
        productId: Number(b.product_id),
        balance,
        movementsSum,
      });
  }
  for (const s of sums) {
    if (!seen.has(key(s)) && toFixed(s.total, 4) !== toFixed(0, 4)) {
      mismatches.push({
        companyId: Number(s.company_id),
        filialId: Number(s.filial_id),
        productId: Number(s.product_id),
        balance: 'missing',
        movementsSum: toFixed(s.total, 4),
      });
    }
  }
  return mismatches;
}
