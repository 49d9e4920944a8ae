import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { dataSource } from './data-source';
import { sessionReadCommitted } from './connect';
import { isSqlite } from './engine';

/*
 * One way into a transaction for the whole service.
 * - Nested calls join the open transaction (same async context), so a service can call another.
 * - SQLite has a single connection: TypeORM would turn concurrent transactions into savepoints of one
 *   another, so transactions on the embedded engine are serialized by a process-wide queue.
 * - MySQL runs READ COMMITTED (no gap locks; rows whose quantities change are locked explicitly) and
 *   retries the whole unit of work on deadlock.
 */
const current = new AsyncLocalStorage<EntityManager>();

let sqliteQueue: Promise<unknown> = Promise.resolve();

function serialize<T>(work: () => Promise<T>): Promise<T> {
  const run = sqliteQueue.then(work, work);
  sqliteQueue = run.catch(() => undefined);
  return run;
}

const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const MAX_ATTEMPTS = 4;

export function activeManager(): EntityManager | undefined {
  return current.getStore();
}

export async function inTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const open = current.getStore();
  if (open) return work(open);
  if (isSqlite) {
    return serialize(() => dataSource.transaction((em) => current.run(em, () => work(em))));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const run = (em: EntityManager) => current.run(em, () => work(em));
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
  return current.getStore() ?? dataSource.manager;
}
