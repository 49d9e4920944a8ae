import { QueryFailedError, QueryResult, QueryRunner } from 'typeorm';
import { dataSource } from './data-source';
import { DeferredWriteFailed } from './db-errors';

/*
 * A MySQL transaction whose statements travel in as few round trips as possible. On a small machine
 * each round trip costs the API more CPU (a socket write, a promise, TypeORM's bookkeeping) than the
 * database spends on a short statement, so:
 * - START TRANSACTION is not sent on its own: it goes out with the transaction's first statement;
 * - writes whose result nobody waits for (ledger rows, line quantities, audit, outbox) are queued and
 *   go out in front of the next statement that needs an answer, or with the COMMIT;
 * - several reads can be sent as one batch (readBatch).
 * The statements of a batch run in the order they were issued, so a read still sees every write
 * queued before it. This needs `multipleStatements` on the MySQL pool; every value is still bound
 * through placeholders (client-side escaping), never spliced into the SQL.
 */

export interface Statement {
  sql: string;
  params?: unknown[];
}

export interface DeferredStatement extends Statement {
  /** What the write is for, named in the DeferredWriteFailed it raises if it fails in a later batch. */
  label: string;
  /** Looks at the rows the statement changed when its batch comes back (throw to fail the transaction). */
  check?: (affectedRows: number) => void;
}

/** A statement of a batch: deferred ones carry their label (and maybe a check). */
type Queued = Statement & Partial<Pick<DeferredStatement, 'label' | 'check'>>;

/** The MySQL result of one statement as TypeORM's query runner would shape it. */
function structured(raw: unknown): QueryResult {
  const result = new QueryResult();
  result.raw = raw;
  if (Array.isArray(raw)) result.records = raw;
  const affected = (raw as { affectedRows?: number } | undefined)?.affectedRows;
  if (affected !== undefined) result.affected = affected;
  return result;
}

/** The callback API of a pooled mysql2 connection (what TypeORM's MySQL query runner holds). */
interface MysqlConnection {
  query(sql: string, params: unknown[], callback: (err: Error | null, result: unknown) => void): { on(event: 'fields', listener: () => void): unknown };
}

/** A batch being assembled: the statements issued in the same tick, deferred ones included. */
interface Gathering {
  entries: Queued[];
  results: Promise<unknown[]>;
}

export class BatchedUnit {
  private pending: Queued[];
  private gathering?: Gathering;
  private readonly preludeLength: number;
  /** Whether any batch (and so START TRANSACTION) has gone out. */
  private begun = false;

  private constructor(readonly runner: QueryRunner, prelude: string[]) {
    this.pending = [...prelude, 'START TRANSACTION'].map((sql) => ({ sql }));
    this.preludeLength = this.pending.length;
    // Every statement of the unit, TypeORM's own included, takes the queued ones along.
    runner.query = (async (sql: string, params?: unknown[], asStructured?: boolean) => {
      const [raw] = await this.run([{ sql, params }]);
      return asStructured ? structured(raw) : raw;
    }) as QueryRunner['query'];
    // TypeORM checks this flag before opening a transaction of its own (save(), nested transaction()).
    Object.assign(runner, { isTransactionActive: true, transactionDepth: 1 });
  }

  static open(prelude: string[] = []): BatchedUnit {
    return new BatchedUnit(dataSource.createQueryRunner('master'), prelude);
  }

  /** Queues a write whose result is not needed now (in issue order with the batch being assembled, if any). */
  defer(statement: DeferredStatement): void {
    if (!statement.label) throw new Error('A deferred statement needs a label');
    (this.gathering?.entries ?? this.pending).push(statement);
  }

  /**
   * Sends these statements, after the queued ones, and answers their results. Statements issued in
   * the same tick (reads started side by side with Promise.all) share one round trip.
   */
  run(statements: Statement[]): Promise<unknown[]> {
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

  /** The queued statements and these entries in one round trip; answers the entries' results. */
  private async send(entries: Queued[]): Promise<unknown[]> {
    const queued = this.pending;
    this.pending = [];
    const all = [...queued, ...entries];
    if (!all.length) return [];
    this.begun = true;
    const sql = all.length === 1 ? all[0].sql : all.map((s) => s.sql).join(';\n');
    const outcome = await this.query(sql, all.flatMap((s) => s.params ?? []));
    if ('error' in outcome) {
      // A deferred write's failure is not the error of the statement whose batch carried it.
      const failed = all[outcome.failedAt] as Queued | undefined;
      throw failed?.label ? new DeferredWriteFailed(failed.label, outcome.error) : outcome.error;
    }
    const results = all.length === 1 ? [outcome.raw] : (outcome.raw as unknown[]);
    all.forEach((s, i) => s.check?.(Number((results[i] as { affectedRows?: number } | undefined)?.affectedRows ?? 0)));
    return results.slice(queued.length);
  }

  /**
   * One statement (or batch) on the unit's connection, straight through mysql2's callback API:
   * TypeORM's own query path builds a promise wrapper (and an event emitter) per query. On failure,
   * answers which statement of the batch failed: mysql2 emits `fields` once per finished statement.
   */
  private async query(sql: string, params: unknown[]): Promise<{ raw: unknown } | { error: QueryFailedError; failedAt: number }> {
    const connection = (await this.runner.connect()) as MysqlConnection;
    const logger = this.runner.connection.logger;
    logger.logQuery(sql, params, this.runner);
    return new Promise((resolve) => {
      let finished = 0;
      connection
        .query(sql, params, (err, result) => {
          if (!err) return resolve({ raw: result });
          logger.logQueryError(err, sql, params, this.runner);
          resolve({ error: new QueryFailedError(sql, params, err), failedAt: finished });
        })
        .on('fields', () => finished++);
    });
  }

  async commit(): Promise<void> {
    if (!this.begun && this.pending.length === this.preludeLength) {
      // The unit issued no statement: there is no transaction to end.
      this.pending = [];
    } else if (this.pending.some((s) => s.check)) {
      // Checks must pass before the COMMIT goes out.
      await this.run([]);
      await this.run([{ sql: 'COMMIT' }]);
    } else {
      await this.run([{ sql: 'COMMIT' }]);
    }
    this.close();
  }

  async rollback(): Promise<void> {
    this.pending = [];
    try {
      if (this.begun) await this.run([{ sql: 'ROLLBACK' }]);
    } finally {
      this.close();
    }
  }

  async release(): Promise<void> {
    await this.runner.release();
  }

  private close(): void {
    Object.assign(this.runner, { isTransactionActive: false, transactionDepth: 0 });
  }
}
