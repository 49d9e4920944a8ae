import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { dataSource } from './data-source';
import { driverErrorCode } from './db-errors';
import { isMysql, isSqlite } from './engine';
import { BatchingQueryRunner, DeferredStatement, queryOnce, Statement } from './batching-query-runner';

/*
 * One way into a transaction for the whole service.
 * - Nested calls join the open transaction (same async context), so a service can call another.
 * - SQLite has a single connection: TypeORM would turn concurrent transactions into savepoints of one
 *   another, so transactions on the embedded engine are serialized by a process-wide queue.
 * - MySQL runs READ COMMITTED (no gap locks; rows whose quantities change are locked explicitly) and
 *   retries the whole unit of work on deadlock. Its statements are batched (batching-query-runner.ts).
 * - Rows that are only ever appended (audit trail, outbox) can be queued on the transaction and are
 *   written just before it commits, one multi-row INSERT per table, whatever the number of changes.
 */
type Flush = (em: EntityManager, rows: unknown[]) => Promise<void>;

interface OpenTransaction {
  em: EntityManager;
  /** Appended rows per writer, in the order they were queued. */
  appends: Map<Flush, unknown[]>;
  /** MySQL: the query runner that batches this transaction's statements. */
  runner?: BatchingQueryRunner;
}

const current = new AsyncLocalStorage<OpenTransaction>();

let sqliteQueue: Promise<unknown> = Promise.resolve();

function serialize<T>(work: () => Promise<T>): Promise<T> {
  const run = sqliteQueue.then(work, work);
  sqliteQueue = run.catch(() => undefined);
  return run;
}

// A deadlock, and on Galera a certification conflict (1213 at any statement or at COMMIT: the other
// node's write won), rolls the whole transaction back: the unit of work runs again, after a pause.
const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
// Enough for a hot row written from several Galera nodes at once (the losers of each round retry).
const MAX_ATTEMPTS = 10;

/** Bounded exponential back-off with jitter before attempt `attempt + 1`: ≤ 10, 20, 40 … 640 ms. */
export const retryPause = (attempt: number): Promise<void> =>
  new Promise((r) => setTimeout(r, Math.min(640, 10 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2)));

/**
 * Transactions run again after a deadlock or certification conflict, since the process started;
 * `atCommit`: of those, the ones whose COMMIT (with the writes deferred to it) failed.
 */
export const transactionRetries = { count: 0, atCommit: 0 };

/** Errors thrown by a COMMIT: the transaction did not commit (the unit runs again or fails). */
const commitFailures = new WeakSet<object>();

export function activeManager(): EntityManager | undefined {
  return current.getStore()?.em;
}

/**
 * Queues an append-only row on the open transaction of `em` (written before it commits); without
 * one, writes it at once.
 */
export async function appendOnCommit<R>(em: EntityManager, flush: (em: EntityManager, rows: R[]) => Promise<void>, row: R): Promise<void> {
  const open = current.getStore();
  if (!open || open.em !== em) return flush(em, [row]);
  const queued = open.appends.get(flush as Flush);
  if (queued) queued.push(row);
  else open.appends.set(flush as Flush, [row]);
}

const batchingRunnerOf = (em: EntityManager): BatchingQueryRunner | undefined => {
  const open = current.getStore();
  return open && open.em === em ? open.runner : undefined;
};

/**
 * A write whose result the caller does not wait for: inside a MySQL transaction it travels with the
 * next statement (or the COMMIT), its check running when that batch comes back; elsewhere it runs now.
 */
export async function deferWrite(em: EntityManager, statement: DeferredStatement): Promise<void> {
  const batching = batchingRunnerOf(em);
  if (batching) return batching.defer(statement);
  const runner = em.queryRunner ?? em.connection.createQueryRunner();
  try {
    const result = await runner.query(statement.sql, statement.params, true);
    statement.check?.(result.affected ?? 0);
  } finally {
    if (!em.queryRunner) await runner.release();
  }
}

/** Several reads in one round trip on MySQL (one after another on SQLite); one result per statement. */
export async function readBatch(em: EntityManager, statements: Statement[]): Promise<unknown[]> {
  const open = batchingRunnerOf(em);
  if (open) return open.run(statements);
  if (isMysql && statements.length > 1) {
    // Only the batching pool takes several statements in one round trip.
    return queryOnce(statements);
  }
  const results: unknown[] = [];
  for (const s of statements) results.push(await em.query(s.sql, s.params));
  return results;
}

/**
 * One statement on `em`: through its transaction when it has one; else, on MySQL, straight on a pooled
 * connection (no TypeORM query runner built for one read). The raw driver result, like `em.query`.
 */
export function queryOn<T = unknown>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T> {
  if (isMysql && !em.queryRunner) return queryOnce([{ sql, params }]).then(([raw]) => raw as T);
  return em.query(sql, params);
}

async function runUnit<T>(open: OpenTransaction, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return current.run(open, async () => {
    const result = await work(open.em);
    for (const [flush, rows] of open.appends) await flush(open.em, rows);
    return result;
  });
}

/** One attempt of a MySQL unit of work on a batching query runner (its connections are READ COMMITTED). */
async function mysqlTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const runner = new BatchingQueryRunner();
  try {
    await runner.startTransaction();
    const result = await runUnit({ em: runner.manager, appends: new Map(), runner }, work);
    // The result goes back (and so a response out) only once the COMMIT succeeded.
    await runner.commitTransaction().catch((err: unknown) => {
      if (err && typeof err === 'object') commitFailures.add(err);
      throw err;
    });
    return result;
  } catch (err) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw err;
  } finally {
    await runner.release();
  }
}

export async function inTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const open = current.getStore();
  if (open) return work(open.em);
  if (isSqlite) {
    return serialize(() => dataSource.transaction((em) => runUnit({ em, appends: new Map() }, work)));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await mysqlTransaction(work);
    } catch (err) {
      const code = driverErrorCode(err);
      if (!code || !RETRYABLE_MYSQL.has(code) || attempt >= MAX_ATTEMPTS) throw err;
      transactionRetries.count++;
      if (commitFailures.has(err as object)) transactionRetries.atCommit++;
      await retryPause(attempt);
    }
  }
}

/** Reads use the open transaction's manager when there is one, else the pool. */
export function reader(): EntityManager {
  return current.getStore()?.em ?? dataSource.manager;
}
