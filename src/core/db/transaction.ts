import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { dataSource } from './data-source';
import { driverErrorCode } from './db-errors';
import { isMysql, isSqlite } from './engine';
import { BatchingQueryRunner, DeferredStatement, queryOnce, Statement } from './batching-query-runner';

/*
 * One way into a transaction for the whole service: the unit of work (`Uow`), passed explicitly.
 * - A route that runs as one unit (idempotent routes, core/idempotency) opens it and hands it on in
 *   `ctx.uow`; a service's `inTransaction(ctx, …)` joins it, and its reads after that go through
 *   `readerOf(ctx)`, the unit's manager. Outside a route's unit `inTransaction` opens a unit of its own
 *   and `readerOf` is the pool. No async context decides which transaction a statement runs in.
 * - Repositories take the unit's manager (`em`); deferWrite / readBatch / appendOnCommit find the unit
 *   from that manager (by identity), so its deferred writes and batch travel with it.
 * - SQLite has a single connection: TypeORM would turn concurrent transactions into savepoints of one
 *   another, so transactions on the embedded engine are serialized by a process-wide queue.
 * - MySQL runs READ COMMITTED (no gap locks; rows whose quantities change are locked explicitly) and
 *   retries the whole unit of work on deadlock. Its statements are batched (batching-query-runner.ts).
 * - Rows that are only ever appended (audit trail, outbox) can be queued on the unit and are
 *   written just before it commits, one multi-row INSERT per table, whatever the number of changes.
 */
type Flush = (em: EntityManager, rows: unknown[]) => Promise<void>;

/*
 * A guard, not a way in: which transaction a statement runs in is never decided here (the unit is
 * passed by hand), but whether this async chain is inside an open unit is known, so that two rules
 * hold by construction (SPEC §12.2): no call to the tax authority while a transaction is open
 * (`assertNoOpenTransaction` in the authority's transport), and no second transaction opened beside
 * an open one (`unitOfWork` throws: on SQLite it would wait for the first forever, on MySQL it waits
 * on the first one's row locks or commits apart from it). The marker is closed when the unit ends, so
 * work started inside it and still running after (timers, fire-and-forget) is outside.
 */
interface OpenMarker {
  open: boolean;
}
const openUnit = new AsyncLocalStorage<OpenMarker>();

/** Whether this async chain is inside an open unit of work. */
export const insideOpenTransaction = (): boolean => openUnit.getStore()?.open === true;

/** A programming error (500) when a database transaction is open in this async chain. */
export function assertNoOpenTransaction(what: string): void {
  if (insideOpenTransaction())
    throw new Error(`${what} while a database transaction is open: run it after the unit of work commits (SPEC §12.2)`);
}

/** Units by their manager: the helpers below that take `em` find its unit from it, by identity. */
const units = new WeakMap<EntityManager, Uow>();

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

/**
 * A unit of work: one transaction, with what it holds besides its manager — the writes deferred to
 * its next round trip (MySQL: its batching query runner) and the append-only rows written just
 * before it commits. Created by `unitOfWork` (a route's unit, `inTransaction` outside one) and passed
 * explicitly: in `ctx.uow` from the route down to services, as its manager `em` to repositories.
 */
export class Uow {
  /** Appended rows per writer, in the order they were queued. */
  private readonly appends = new Map<Flush, unknown[]>();
  /** Set once the unit's own work returned (its appended rows are being written or were written). */
  private closed = false;

  constructor(
    /** The transaction's manager: every statement of the unit goes through it. */
    readonly em: EntityManager,
    /** MySQL: the query runner that batches this transaction's statements. */
    private readonly runner?: BatchingQueryRunner,
  ) {
    units.set(em, this);
  }

  /** Whether the unit's work is over (a statement issued now belongs to no open unit). */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * A write whose result the caller does not wait for: on MySQL it travels with the next statement
   * (or the COMMIT), its check running when that batch comes back; on SQLite it runs now.
   */
  async defer(statement: DeferredStatement): Promise<void> {
    if (this.runner) return this.runner.defer(statement);
    return writeNow(this.em, statement);
  }

  /** Several reads in one round trip on MySQL (one after another on SQLite); one result per statement. */
  async readBatch(statements: Statement[]): Promise<unknown[]> {
    if (this.runner) return this.runner.run(statements);
    return readEach(this.em, statements);
  }

  /** Queues an append-only row, written with the others of its writer just before the unit commits. */
  async appendOnCommit<R>(flush: (em: EntityManager, rows: R[]) => Promise<void>, row: R): Promise<void> {
    // A row queued after the unit's work returned would never be written: it goes now (and fails
    // when the transaction is over, like any stray statement).
    if (this.closed) return flush(this.em, [row]);
    const queued = this.appends.get(flush as Flush);
    if (queued) queued.push(row);
    else this.appends.set(flush as Flush, [row]);
  }

  /** Runs the unit's work, then writes its appended rows (before the caller commits). */
  async run<T>(work: (uow: Uow) => Promise<T>): Promise<T> {
    try {
      const result = await work(this);
      this.closed = true;
      for (const [flush, rows] of this.appends) await flush(this.em, rows);
      return result;
    } finally {
      this.closed = true;
      this.appends.clear();
    }
  }
}

/** What carries a route's unit of work from the edge to services: `ActorContext` is one. */
export interface UnitScope {
  /** The route's unit, when the route runs as one (idempotent routes, mode 'unit'); absent elsewhere. */
  readonly uow?: Uow;
}

/** For code that runs in no route's unit: background jobs, CLIs, the idempotency bookkeeping, tests. */
export const NO_UNIT: UnitScope = Object.freeze({});

/** The unit whose manager `em` is, if any. */
export const uowOf = (em: EntityManager): Uow | undefined => units.get(em);

async function writeNow(em: EntityManager, statement: DeferredStatement): Promise<void> {
  const runner = em.queryRunner ?? em.connection.createQueryRunner();
  try {
    const result = await runner.query(statement.sql, statement.params, true);
    statement.check?.(result.affected ?? 0);
    if (statement.expect && (result.affected ?? 0) !== statement.expect.rows) throw statement.expect.error();
  } finally {
    if (!em.queryRunner) await runner.release();
  }
}

async function readEach(em: EntityManager, statements: Statement[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const s of statements) results.push(await em.query(s.sql, s.params));
  return results;
}

/**
 * Queues an append-only row on the unit whose manager `em` is (written before it commits); `em`
 * outside any unit writes it at once.
 */
export async function appendOnCommit<R>(em: EntityManager, flush: (em: EntityManager, rows: R[]) => Promise<void>, row: R): Promise<void> {
  const uow = units.get(em);
  return uow ? uow.appendOnCommit(flush, row) : flush(em, [row]);
}

/** `Uow.defer` on the unit whose manager `em` is; outside any unit the write runs now. */
export async function deferWrite(em: EntityManager, statement: DeferredStatement): Promise<void> {
  const uow = units.get(em);
  return uow ? uow.defer(statement) : writeNow(em, statement);
}

/** `Uow.readBatch` on the unit whose manager `em` is; outside any unit, one round trip on the pool (MySQL). */
export async function readBatch(em: EntityManager, statements: Statement[]): Promise<unknown[]> {
  const uow = units.get(em);
  if (uow) return uow.readBatch(statements);
  // Only the batching pool takes several statements in one round trip.
  if (isMysql && statements.length > 1) return queryOnce(statements);
  return readEach(em, statements);
}

/**
 * One statement on `em`: through its transaction when it has one; else, on MySQL, straight on a pooled
 * connection (no TypeORM query runner built for one read). The raw driver result, like `em.query`.
 */
export function queryOn<T = unknown>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T> {
  if (isMysql && !em.queryRunner) return queryOnce([{ sql, params }]).then(([raw]) => raw as T);
  return em.query(sql, params);
}

/** One attempt of a MySQL unit of work on a batching query runner (its connections are READ COMMITTED). */
async function mysqlUnit<T>(work: (uow: Uow) => Promise<T>): Promise<T> {
  const runner = new BatchingQueryRunner();
  try {
    await runner.startTransaction();
    const uow = new Uow(runner.manager, runner);
    const result = await uow.run(work);
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

/**
 * A new unit of work: `work` runs in one transaction, committed when it returns (its appended rows
 * written first), rolled back when it throws; on MySQL run again whole after a deadlock. Never joins
 * another unit: a route's unit (core/idempotency) and `inTransaction` outside one open theirs here.
 */
export async function unitOfWork<T>(work: (uow: Uow) => Promise<T>): Promise<T> {
  if (insideOpenTransaction())
    throw new Error('unitOfWork: a new transaction opened beside the open unit of this async chain (pass its ctx or em on)');
  const marker: OpenMarker = { open: true };
  try {
    return await openUnit.run(marker, () => runUnit(work));
  } finally {
    marker.open = false;
  }
}

async function runUnit<T>(work: (uow: Uow) => Promise<T>): Promise<T> {
  if (isSqlite) {
    return serialize(() => dataSource.transaction((em) => new Uow(em).run(work)));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await mysqlUnit(work);
    } catch (err) {
      const code = driverErrorCode(err);
      if (!code || !RETRYABLE_MYSQL.has(code) || attempt >= MAX_ATTEMPTS) throw err;
      transactionRetries.count++;
      if (commitFailures.has(err as object)) transactionRetries.atCommit++;
      await retryPause(attempt);
    }
  }
}

/**
 * `work` in a transaction, given its manager: the route's unit when `scope` (the request's ctx)
 * carries one, else a unit of its own (`NO_UNIT` where there is no request: jobs, CLIs, tests).
 * Code already inside a transaction passes its `em` on instead of opening another.
 */
export async function inTransaction<T>(scope: UnitScope, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const joined = scope.uow;
  if (joined) {
    if (joined.isClosed) throw new Error('inTransaction: the unit of work of this context is over');
    return work(joined.em);
  }
  return unitOfWork((uow) => work(uow.em));
}

/**
 * The manager reads go through: the route's unit when `scope` carries one (its reads see the unit's
 * writes, on the unit's connection), else the pool's (each read on a pooled connection, autocommit).
 */
export function readerOf(scope: UnitScope): EntityManager {
  return scope.uow?.em ?? dataSource.manager;
}
