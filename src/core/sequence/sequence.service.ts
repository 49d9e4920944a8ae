import type { ResultSetHeader } from 'mysql2';
import { EntityManager } from 'typeorm';
import { config } from '../config';
import { isMysql } from '../db/engine';
import { createMysqlPool, MysqlPoolLike } from '../db/host-pool';
import { isDeadlock } from '../db/db-errors';
import { registerPool } from '../db/pool-registry';
import { inTransaction, NO_UNIT, retryPause, uowOf } from '../db/transaction';
import { Sequence } from './sequence.entity';

/*
 * Per-company counters. A value is taken by one autocommitted statement, so the counter row is
 * locked for that statement only, never for the caller's unit of work — even when the caller is in
 * the middle of a transaction. On MySQL the statement runs on a small pool of its own: a caller
 * holding a connection of the main pool can never starve waiting for another one. A caller that rolls
 * back leaves a gap: values are unique and increasing, not gap-free (docs/decisions.md).
 * With several hosts (Galera) the pool spreads over them like the main one; two nodes bumping one
 * counter at once conflict at certification and the statement is sent again (below).
 */
let pool: MysqlPoolLike | undefined;
registerPool('sequence', () => pool);
const sequencePool = (): MysqlPoolLike =>
  (pool ??= createMysqlPool(
    { uri: config.db.url!.replace(/^mariadb:/, 'mysql:'), connectionLimit: 4, timezone: 'Z', trace: config.env !== 'production' },
    config.db.hosts,
    config.db.hostRetryMs,
    config.db.deadlines,
  ));

/** Closes the MySQL sequence pool (process shutdown, CLIs, test teardown). */
export async function closeSequencePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p) await new Promise((resolve) => p.end(resolve));
}

const BUMP_ATTEMPTS = 8;

// LAST_INSERT_ID(expr) hands the new value back on the same connection, in the same statement.
const BUMP =
  'INSERT INTO `sequence` (company_id, name, value) VALUES (?, ?, LAST_INSERT_ID(?)) ON DUPLICATE KEY UPDATE value = LAST_INSERT_ID(value + ?)';
const BUMP_FROM =
  'INSERT INTO `sequence` (company_id, name, value) VALUES (?, ?, LAST_INSERT_ID(? + ?)) ON DUPLICATE KEY UPDATE value = LAST_INSERT_ID(GREATEST(value, ?) + ?)';

const bumpMysql = (companyId: number, name: string, by: number) => autocommitted(BUMP, [companyId, name, by, by]);

/**
 * MySQL: raises the counter to at least `floor`, then takes the `by` values after it, in one
 * autocommitted statement on the sequence pool; answers the last value taken.
 */
export const takeValuesAbove = (companyId: number, name: string, floor: number, by: number): Promise<number> => {
  if (!isMysql) throw new Error('takeValuesAbove: MySQL only');
  return autocommitted(BUMP_FROM, [companyId, name, floor, by, floor, by]);
};

/** MySQL: the highest id of a table, read (no lock) on the sequence pool: where a process's id blocks start (ids.ts). */
export async function maxIdOnSequencePool(table: string): Promise<number> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  const rows = await new Promise<{ m: number | string }[]>((resolve, reject) =>
    sequencePool().query(`SELECT COALESCE(MAX(id), 0) AS m FROM \`${table}\``, [], (err, result) =>
      err ? reject(err) : resolve(result as { m: number | string }[]),
    ),
  );
  return Number(rows[0].m);
}

async function autocommitted(sql: string, params: unknown[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await new Promise<ResultSetHeader>((resolve, reject) =>
        sequencePool().query(sql, params, (err, result) => (err ? reject(err) : resolve(result as ResultSetHeader))),
      );
      return Number(res.insertId);
    } catch (err) {
      // An autocommitted statement that lost a certification conflict did not happen: send it again.
      if (!isDeadlock(err) || attempt >= BUMP_ATTEMPTS) throw err;
      await retryPause(attempt);
    }
  }
}

async function bumpSqlite(em: EntityManager, companyId: number, name: string, by: number): Promise<number> {
  await em.createQueryBuilder().insert().into(Sequence).values({ companyId, name, value: 0 }).orIgnore().execute();
  await em
    .createQueryBuilder()
    .update(Sequence)
    .set({ value: () => `value + ${Math.trunc(by)}` })
    .where('company_id = :companyId AND name = :name', { companyId, name })
    .execute();
  return (await em.findOneByOrFail(Sequence, { companyId, name })).value;
}

/**
 * MySQL: callers that want values of the same counter while one bump is on its way (a busy counter,
 * many sales at once) are served together by the next bump, which takes exactly what they asked for:
 * one autocommitted statement (and one commit) for the group, values handed out in the order asked,
 * nothing held in memory between groups (so no gap at restart, and other replicas' values interleave
 * no more than their requests do).
 */
interface Waiter {
  count: number;
  resolve: (first: number) => void;
  reject: (err: unknown) => void;
}
const groups = new Map<string, { waiting: Waiter[]; busy: boolean }>();

function bumpTogether(companyId: number, name: string, count: number): Promise<number> {
  const key = `${companyId}:${name}`;
  let group = groups.get(key);
  if (!group) groups.set(key, (group = { waiting: [], busy: false }));
  const promise = new Promise<number>((resolve, reject) => group.waiting.push({ count, resolve, reject }));
  if (!group.busy) void drain(key, companyId, name, group);
  return promise;
}

async function drain(key: string, companyId: number, name: string, group: { waiting: Waiter[]; busy: boolean }): Promise<void> {
  group.busy = true;
  while (group.waiting.length) {
    const served = group.waiting.splice(0);
    const total = served.reduce((n, w) => n + w.count, 0);
    try {
      let next = (await bumpMysql(companyId, name, total)) - total + 1;
      for (const w of served) {
        w.resolve(next);
        next += w.count;
      }
    } catch (err) {
      for (const w of served) w.reject(err);
    }
  }
  group.busy = false;
  groups.delete(key);
}

/**
 * Reserves `count` consecutive values and returns the first. `em`: the caller's manager — on SQLite,
 * where transactions are serialized on one connection, the bump joins the caller's unit when `em` is
 * one's (opening another would wait for it forever); MySQL takes the values on its own pool.
 */
export async function nextSequenceValues(em: EntityManager, companyId: number, name: string, count = 1): Promise<number> {
  const by = Math.trunc(count);
  if (isMysql) return bumpTogether(companyId, name, by);
  const last = uowOf(em)
    ? await bumpSqlite(em, companyId, name, by)
    : await inTransaction(NO_UNIT, (tx) => bumpSqlite(tx, companyId, name, by));
  return last - by + 1;
}

export const nextSequenceValue = (em: EntityManager, companyId: number, name: string) => nextSequenceValues(em, companyId, name, 1);

/** Moves the counter up to at least `value` (e.g. after codes were taken by hand). */
export async function raiseSequenceTo(em: EntityManager, companyId: number, name: string, value: number): Promise<void> {
  await em.createQueryBuilder().insert().into(Sequence).values({ companyId, name, value: 0 }).orIgnore().execute();
  await em
    .createQueryBuilder()
    .update(Sequence)
    .set({ value })
    .where('company_id = :companyId AND name = :name AND value < :value', { companyId, name, value })
    .execute();
}
