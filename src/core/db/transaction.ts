import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { sessionReadCommitted } from './connect';
import { dataSource } from './data-source';
import { isSqlite } from './engine';

/*
 * One way into a transaction for the whole service.
 * - Nested calls join the open transaction (same async context), so a service can call another.
 * - SQLite has a single connection: TypeORM would turn concurrent transactions into savepoints of one
 *   another, so transactions on the embedded engine are serialized by a process-wide queue.
 * - MySQL runs READ COMMITTED (no gap locks; rows whose quantities change are locked explicitly) and
 *   retries the whole unit of work on deadlock.
 * - Rows that are only ever appended (audit trail, outbox) can be queued on the transaction and are
 *   written just before it commits, one multi-row INSERT per table, whatever the number of changes.
 */
type Flush = (em: EntityManager, rows: unknown[]) => Promise<void>;

interface OpenTransaction {
  em: EntityManager;
  /** Appended rows per writer, in the order they were queued. */
  appends: Map<Flush, unknown[]>;
}

const current = new AsyncLocalStorage<OpenTransaction>();

let sqliteQueue: Promise<unknown> = Promise.resolve();

function serialize<T>(work: () => Promise<T>): Promise<T> {
  const run = sqliteQueue.then(work, work);
  sqliteQueue = run.catch(() => undefined);
  return run;
}

const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const MAX_ATTEMPTS = 4;

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

async function runUnit<T>(em: EntityManager, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const open: OpenTransaction = { em, appends: new Map() };
  return current.run(open, async () => {
    const result = await work(em);
    for (const [flush, rows] of open.appends) await flush(em, rows);
    return result;
  });
}

export async function inTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const open = current.getStore();
  if (open) return work(open.em);
  if (isSqlite) {
    return serialize(() => dataSource.transaction((em) => runUnit(em, work)));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const run = (em: EntityManager) => runUnit(em, work);
      return await (sessionReadCommitted ? dataSource.transaction(run) : dataSource.transaction('READ COMMITTED', run));
    } catch (err) {
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (err as { code?: string }).code;
      if (!code || !RETRYABLE_MYSQL.has(code) || attempt >= MAX_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}

/** Reads use the open transaction's manager when there is one, else the pool. */
export function reader(): EntityManager {
  return current.getStore()?.em ?? dataSource.manager;
}
