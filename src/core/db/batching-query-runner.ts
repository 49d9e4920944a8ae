import { QueryFailedError, QueryResult, QueryRunnerAlreadyReleasedError, TransactionNotStartedError, type QueryRunner } from 'typeorm';
// TypeORM internals, registered in docs/decisions/library-internals.md (typeorm pinned exactly).
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';
import { config } from '../config';
import { dataSource } from './data-source';
import { createMysqlPool } from './host-pool';
import { registerPool } from './pool-registry';
import { DeferredWriteFailed } from './db-errors';
import { serverTraits, sessionSetup } from './server-traits';

/*
 * The query runner of a MySQL transaction whose statements travel in as few round trips as possible.
 * On a small machine each round trip costs the API more CPU (a socket write, a promise, TypeORM's
 * bookkeeping) than the database spends on a short statement, so:
 * - START TRANSACTION is not sent on its own: it goes out with the transaction's first statement;
 * - writes whose result nobody waits for (ledger rows, line quantities, audit, outbox) are deferred:
 *   queued, they go out in front of the next statement that needs an answer, or with the COMMIT;
 * - statements issued in the same tick (Promise.all, readBatch) share one round trip.
 * The statements of a batch run in the order they were issued, so a read still sees every write
 * queued before it. On Galera a batch's statements go one per round trip (executeEach: a replicated
 * write's abort in the middle of a multi-statement query is not reported).
 *
 * It is a subclass of TypeORM's MysqlQueryRunner, checked against typeorm 1.1.1 (pinned exactly in
 * package.json): startTransaction/commitTransaction/rollbackTransaction keep TypeORM's flags and
 * broadcast its transaction events (subscribers' before/after start, commit and rollback run), and
 * every batch broadcasts TypeORM's before/after query events and slow-query logging once, with the
 * batch's SQL. Only the batching differs: the query runs through mysql2's callback API, and START
 * TRANSACTION and COMMIT travel with other statements. Savepoints (a nested TypeORM transaction)
 * take TypeORM's own path, batched like any statement.
 *
 * Its connections come from a pool of their own, the only one with `multipleStatements` on (every
 * value is still bound through placeholders, never spliced into the SQL); each is set to READ
 * COMMITTED (on Galera, causal reads too) when it opens, so a transaction needs no SET statement. With several database hosts the
 * pool spreads over them like the main one (host-pool.ts: dead or not-Synced nodes left out).
 */

type MysqlDriver = ConstructorParameters<typeof MysqlQueryRunner>[0];
type IsolationLevel = NonNullable<Parameters<QueryRunner['startTransaction']>[0]>;

export interface Statement {
  sql: string;
  params?: unknown[];
}

export interface DeferredStatement extends Statement {
  /** What the write is for, named in the DeferredWriteFailed it raises if it fails in a later batch. */
  label: string;
  /** Looks at the rows the statement changed when its batch comes back (throw to fail the transaction). */
  check?: (affectedRows: number) => void;
  /**
   * A guard the database itself enforces: unless the statement changed exactly `rows` rows, the batch
   * stops there with `error()` — nothing after it runs, the COMMIT that travels with it included. A
   * conditional write guarded this way needs no round trip of its own before the COMMIT (a `check`
   * does: it can only look once the batch is back).
   */
  expect?: { rows: number; error: () => Error };
}

/**
 * The statement that enforces `expect`: it fails (1242, a scalar subquery of two rows) unless the
 * statement before it changed `rows` rows; ROW_COUNT() is that statement's count on this connection.
 */
const guardOf = (statement: DeferredStatement): Queued => ({
  sql: 'SELECT IF(ROW_COUNT() = ?, 0, (SELECT 1 UNION ALL SELECT 2)) AS guard',
  params: [statement.expect!.rows],
  label: `${statement.label} (guard)`,
  guardError: statement.expect!.error,
});

/** A statement of a batch: deferred ones carry their label (and maybe a check). */
type Queued = Statement & Partial<Pick<DeferredStatement, 'label' | 'check'>> & { guardError?: () => Error };

/** A batch being assembled: the statements issued in the same tick, deferred ones included. */
interface Gathering {
  entries: Queued[];
  results: Promise<unknown[]>;
}

/** The callback API of a pooled mysql2 connection. */
interface PooledConnection {
  query(
    sql: string,
    params: unknown[],
    callback: (err: Error | null, result: unknown) => void,
  ): { on(event: 'fields', listener: () => void): unknown };
  query(sql: string): unknown;
  release(): void;
}

interface ConnectionPool {
  getConnection(callback: (err: Error | null, connection: PooledConnection) => void): void;
  on(event: 'connection', listener: (connection: PooledConnection) => void): void;
  end(callback: (err?: Error | null) => void): void;
}

/** What this file uses of the driver beyond its typings (public in its JavaScript). */
interface DriverInternals {
  mysql: { createPool(options: object): ConnectionPool };
  options: object;
  createConnectionOptions(options: object, credentials: object): object;
  prepareDbConnection(connection: PooledConnection): PooledConnection;
}

let pool: ConnectionPool | undefined;
registerPool('transactions', () => pool);

/**
 * The batching connections: the driver's own connection options (DB_POOL_SIZE connections) plus
 * multiple statements; over every host when there are several (a Galera cluster, host-pool.ts).
 */
function batchingPool(driver: DriverInternals): ConnectionPool {
  if (pool) return pool;
  const options = { ...driver.createConnectionOptions(driver.options, driver.options), multipleStatements: true };
  pool = createMysqlPool(options, config.db.hosts, config.db.hostRetryMs, config.db.deadlines) as unknown as ConnectionPool;
  // Queued before anything else on a new connection, so every transaction on it is READ COMMITTED
  // (and on Galera reads causally: server-traits.ts).
  const setup = sessionSetup();
  pool.on('connection', (connection) => {
    for (const sql of setup) connection.query(sql);
  });
  return pool;
}

/** Closes the batching pool (process shutdown, CLIs, test teardown). */
export async function closeBatchingPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p) await new Promise<void>((resolve) => p.end(() => resolve()));
}

/** Whether any TypeORM subscriber listens: none does in this service, and then broadcasting (promises per event) is skipped. */
const unheard = (): boolean => dataSource.subscribers.length === 0;

/**
 * Statements outside any transaction, in one round trip on a pooled connection, logged like every
 * query (TypeORM's logger), without building a TypeORM query runner for them: several statements take
 * a connection of the batching pool (the one with multiple statements), a single one TypeORM's own pool.
 */
export function queryOnce(statements: Statement[]): Promise<unknown[]> {
  const driver = dataSource.driver as unknown as DriverInternals & { pool?: ConnectionPool };
  const single = statements.length === 1;
  const sql = single ? statements[0].sql : statements.map((s) => s.sql).join(';\n');
  const params = single ? (statements[0].params ?? []) : statements.flatMap((s) => s.params ?? []);
  const logger = dataSource.logger;
  logger.logQuery(sql, params);
  const from = single && driver.pool ? driver.pool : batchingPool(driver);
  return new Promise<unknown[]>((resolve, reject) =>
    from.getConnection((err, connection) => {
      if (err) return reject(err);
      driver.prepareDbConnection(connection).query(sql, params, (queryErr, raw) => {
        connection.release();
        if (queryErr) {
          logger.logQueryError(queryErr, sql, params);
          return reject(new QueryFailedError(sql, params, queryErr));
        }
        resolve(single ? [raw] : (raw as unknown[]));
      });
    }),
  );
}

/** The MySQL result of one statement as TypeORM's query runner would shape it. */
function structured(raw: unknown): QueryResult {
  const result = new QueryResult();
  result.raw = raw;
  if (Array.isArray(raw)) result.records = raw;
  const affected = (raw as { affectedRows?: number } | undefined)?.affectedRows;
  if (affected !== undefined) result.affected = affected;
  return result;
}

type Outcome = { raw: unknown } | { error: QueryFailedError; failedAt: number };

/** Statements refused because their transaction ended (BatchingQueryRunner.ended), counted for the metrics and tests. */
export const strayStatements = { count: 0 };

function strayStatement(sql: string | undefined): Error {
  strayStatements.count++;
  return Object.assign(new Error(`A statement was issued after its transaction ended; not sent: ${String(sql).slice(0, 80)}`), {
    code: 'TRANSACTION_ENDED',
  });
}

export class BatchingQueryRunner extends MysqlQueryRunner {
  /** Statements waiting for the next round trip: the transaction's opening, then deferred writes. */
  private pending: Queued[] = [];
  private gathering?: Gathering;
  /** How many statements open the transaction (not yet sent while `begun` is false). */
  private openingLength = 0;
  /** Whether any batch (and so START TRANSACTION) has gone out in this transaction. */
  private begun = false;
  /**
   * The transaction is ending or ended (its COMMIT or ROLLBACK is on its way, or the runner was
   * released). A statement issued after that comes from an abandoned attempt — a branch of a
   * Promise.all still running after another branch failed — and is refused, never sent: sent, it
   * would run in autocommit mode, or inside the next transaction its connection serves, where an
   * error it met (a deadlock, a certification conflict) would roll back that transaction without
   * its owner knowing, and the owner's COMMIT would then succeed with its writes lost.
   */
  private ended = false;

  constructor() {
    super(dataSource.driver as MysqlDriver, 'master');
    // What DataSource.createQueryRunner does for TypeORM's own runners.
    this.manager = dataSource.createEntityManager(this);
  }

  /** A connection of the batching pool (TypeORM's release() hands it back there). */
  override connect(): Promise<PooledConnection> {
    if (this.databaseConnection) return Promise.resolve(this.databaseConnection as PooledConnection);
    const driver = this.driver as unknown as DriverInternals;
    this.databaseConnectionPromise ??= new Promise<PooledConnection>((resolve, reject) =>
      batchingPool(driver).getConnection((err, connection) => (err ? reject(err) : resolve(driver.prepareDbConnection(connection)))),
    ).then((connection) => (this.databaseConnection = connection));
    return this.databaseConnectionPromise;
  }

  /** TypeORM's start, except that START TRANSACTION waits for the transaction's first statement. */
  override async startTransaction(isolationLevel?: IsolationLevel): Promise<void> {
    if (this.transactionDepth > 0) return super.startTransaction(isolationLevel);
    this.isTransactionActive = true;
    const heard = !unheard();
    if (heard) {
      try {
        await this.broadcaster.broadcast('BeforeTransactionStart');
      } catch (err) {
        this.isTransactionActive = false;
        throw err;
      }
    }
    this.pending = isolationLevel
      ? [{ sql: `SET TRANSACTION ISOLATION LEVEL ${isolationLevel}` }, { sql: 'START TRANSACTION' }]
      : [{ sql: 'START TRANSACTION' }];
    this.openingLength = this.pending.length;
    this.begun = false;
    this.ended = false;
    this.transactionDepth += 1;
    if (heard) await this.broadcaster.broadcast('AfterTransactionStart');
  }

  /** TypeORM's commit; the COMMIT goes out with the deferred writes (after them when they carry checks). */
  override async commitTransaction(): Promise<void> {
    if (!this.isTransactionActive) throw new TransactionNotStartedError();
    if (this.transactionDepth > 1) return super.commitTransaction();
    const heard = !unheard();
    if (heard) await this.broadcaster.broadcast('BeforeTransactionCommit');
    if (!this.begun && this.pending.length === this.openingLength) {
      // The transaction issued no statement: there is nothing to end.
      this.pending = [];
    } else {
      // Checks must pass before the COMMIT goes out. On Galera the transaction is also checked to be
      // still open: one rolled back behind this runner's back must fail, not commit what is left.
      if (serverTraits.galera) {
        const [open] = (await this.run([{ sql: 'SELECT @@in_transaction AS open' }])) as { open: number | string }[][];
        if (Number(open[0]?.open) !== 1)
          throw Object.assign(new Error('The transaction was rolled back before its COMMIT (its writes are not all in it)'), {
            code: 'TRANSACTION_LOST',
          });
      } else if (this.pending.some((s) => s.check)) await this.run([]);
      this.ended = true;
      await this.run([{ sql: 'COMMIT' }], true);
    }
    this.isTransactionActive = false;
    this.transactionDepth -= 1;
    if (heard) await this.broadcaster.broadcast('AfterTransactionCommit');
  }

  /** TypeORM's rollback; the deferred writes not yet sent are dropped. */
  override async rollbackTransaction(): Promise<void> {
    if (!this.isTransactionActive) throw new TransactionNotStartedError();
    if (this.transactionDepth > 1) return super.rollbackTransaction();
    const heard = !unheard();
    if (heard) await this.broadcaster.broadcast('BeforeTransactionRollback');
    this.pending = [];
    this.ended = true;
    try {
      if (this.begun) await this.run([{ sql: 'ROLLBACK' }], true);
    } finally {
      this.isTransactionActive = false;
      this.transactionDepth -= 1;
    }
    if (heard) await this.broadcaster.broadcast('AfterTransactionRollback');
  }

  /** Every statement of the runner, TypeORM's own included, takes the deferred ones along. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM's QueryRunner.query is declared Promise<any>; an override must match it
  override async query(query: string, parameters?: unknown[], useStructuredResult = false): Promise<any> {
    if (this.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const [raw] = await this.run([{ sql: query, params: parameters }]);
    return useStructuredResult ? structured(raw) : raw;
  }

  /** Gives the connection back; nothing more is sent from this runner. */
  override release(): Promise<void> {
    this.ended = true;
    return super.release();
  }

  /** Defers a write whose result is not needed now (in issue order with the batch being assembled, if any). */
  defer(statement: DeferredStatement): void {
    if (!statement.label) throw new Error('A deferred statement needs a label');
    if (this.ended) throw strayStatement(statement.sql);
    const queue = this.gathering?.entries ?? this.pending;
    queue.push(statement);
    if (statement.expect) queue.push(guardOf(statement));
  }

  /**
   * Sends these statements, after the deferred ones, and answers their results. Statements issued
   * in the same tick (reads started side by side with Promise.all) share one round trip.
   */
  run(statements: Statement[], ending = false): Promise<unknown[]> {
    if (this.ended && !ending) return Promise.reject(strayStatement(statements[0]?.sql));
    let batch = this.gathering;
    if (!batch) {
      const entries: Queued[] = [];
      batch = this.gathering = {
        entries,
        results: new Promise<void>((resolve) => process.nextTick(resolve)).then(() => {
          this.gathering = undefined;
          return this.send(entries);
        }),
      };
    }
    const from = batch.entries.length;
    batch.entries.push(...statements);
    return batch.results.then((results) => results.slice(from, from + statements.length));
  }

  /** The pending statements and these entries in one round trip; answers the entries' results. */
  private async send(entries: Queued[]): Promise<unknown[]> {
    const queued = this.pending;
    this.pending = [];
    const all = [...queued, ...entries];
    if (!all.length) return [];
    this.begun = true;
    let outcome;
    if (serverTraits.galera && all.length > 1) outcome = await this.executeEach(all);
    else {
      let sql = all[0].sql;
      const params: unknown[] = [];
      for (let i = 0; i < all.length; i++) {
        const s = all[i];
        if (i > 0) sql += ';\n' + s.sql;
        if (s.params) for (const p of s.params) params.push(p);
      }
      outcome = await this.execute(sql, params);
    }
    if ('error' in outcome) {
      // A deferred write's failure is not the error of the statement whose batch carried it.
      const failed = all[outcome.failedAt];
      // A failing guard is a SELECT: its columns came back before its error, so it was counted finished.
      const guard = [failed, all[outcome.failedAt - 1]].find((s) => s?.guardError);
      if (guard && (outcome.error.driverError as { errno?: number } | undefined)?.errno === 1242) throw guard.guardError!();
      throw failed?.label ? new DeferredWriteFailed(failed.label, outcome.error) : outcome.error;
    }
    const results = all.length === 1 ? [outcome.raw] : (outcome.raw as unknown[]);
    all.forEach((s, i) => s.check?.(Number((results[i] as { affectedRows?: number } | undefined)?.affectedRows ?? 0)));
    return results.slice(queued.length);
  }

  /**
   * Galera: the statements one round trip each. A transaction that a replicated write aborts
   * (brute-force abort, the certification conflict of a node's local transaction) between two
   * statements of one multi-statement query is rolled back, but MariaDB 10.11 runs the query's
   * remaining statements in autocommit mode and answers no error: they commit on their own and the
   * rest of the transaction is lost, while its COMMIT later succeeds (reproduced on the local
   * cluster; the Galera suite's kill test found acknowledged sales missing and balances without
   * their movements). Sent alone, each statement reports the abort (1213) and the unit runs again.
   */
  private async executeEach(all: Queued[]): Promise<Outcome> {
    const raws: unknown[] = [];
    for (let i = 0; i < all.length; i++) {
      const outcome = await this.execute(all[i].sql, all[i].params ?? []);
      if ('error' in outcome) return { error: outcome.error, failedAt: i };
      raws.push(outcome.raw);
    }
    return { raw: raws };
  }

  /**
   * One round trip with TypeORM's logging, query events and slow-query log, straight through
   * mysql2's callback API (TypeORM's path builds a promise wrapper per query). On failure, answers
   * which statement of the batch failed: mysql2 emits `fields` once per finished statement.
   */
  private async execute(sql: string, params: unknown[]): Promise<Outcome> {
    const connection = (this.databaseConnection as PooledConnection | undefined) ?? (await this.connect());
    const logger = this.dataSource.logger;
    logger.logQuery(sql, params, this);
    const heard = !unheard();
    if (heard) await this.broadcaster.broadcast('BeforeQuery', sql, params);
    const slowAfter = this.driver.options.maxQueryExecutionTime;
    const started = slowAfter || heard ? Date.now() : 0;
    const outcome = await new Promise<Outcome>((resolve) => {
      let finished = 0;
      connection
        .query(sql, params, (err, raw) => resolve(err ? { error: new QueryFailedError(sql, params, err), failedAt: finished } : { raw }))
        .on('fields', () => finished++);
    });
    const elapsed = started ? Date.now() - started : 0;
    if (slowAfter && elapsed > slowAfter) logger.logQuerySlow(elapsed, sql, params, this);
    if ('error' in outcome) logger.logQueryError(outcome.error.driverError as Error, sql, params, this);
    if (heard) {
      const broadcasterResult = new BroadcasterResult();
      if ('error' in outcome)
        this.broadcaster.broadcastAfterQueryEvent(broadcasterResult, sql, params, false, undefined, undefined, outcome.error.driverError);
      else this.broadcaster.broadcastAfterQueryEvent(broadcasterResult, sql, params, true, elapsed, outcome.raw, undefined);
      await broadcasterResult.wait();
    }
    return outcome;
  }
}
