import { dataSource } from './data-source';
import { isMysql } from './engine';
import { serverTraits } from './server-traits';

const READ_COMMITTED = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';

/**
 * Opens the database. On MySQL every connection of TypeORM's pool is set to READ COMMITTED once, when
 * it is created (the transactions' batching pool does the same, batching-query-runner.ts), so no
 * statement needs a `SET TRANSACTION ISOLATION LEVEL` of its own; and the server's auto-increment
 * settings tell whether a multi-row INSERT gets consecutive ids.
 */
export async function openDatabase(): Promise<void> {
  await dataSource.initialize();
  if (!isMysql) return;
  const [autoInc] = (await dataSource.query('SELECT @@innodb_autoinc_lock_mode AS mode, @@auto_increment_increment AS step')) as { mode: number | string; step: number | string }[];
  serverTraits.consecutiveInsertIds = Number(autoInc.mode) <= 1 && Number(autoInc.step) === 1;
  const pool = (dataSource.driver as unknown as { pool?: { on: (e: string, cb: (c: { query: (sql: string) => unknown }) => void) => void; _allConnections?: { length: number } } }).pool;
  if (!pool) return;
  pool.on('connection', (connection) => {
    connection.query(READ_COMMITTED);
  });
  // The connection TypeORM opened while initializing predates the hook: it is the only one so far.
  const opened = pool._allConnections?.length ?? 0;
  for (let i = 0; i < opened; i++) await dataSource.query(READ_COMMITTED);
}
