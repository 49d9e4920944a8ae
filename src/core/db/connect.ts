import { dataSource } from './data-source';
import { isMysql } from './engine';

const READ_COMMITTED = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';

/** Whether every pooled MySQL connection already runs READ COMMITTED (see openDatabase). */
export let sessionReadCommitted = false;

/**
 * Opens the database. On MySQL every pooled connection is set to READ COMMITTED once, when it is
 * created, so transactions need no `SET TRANSACTION ISOLATION LEVEL` statement of their own (one
 * round trip less for every unit of work).
 */
export async function openDatabase(): Promise<void> {
  await dataSource.initialize();
  if (!isMysql) return;
  const pool = (dataSource.driver as unknown as { pool?: { on: (e: string, cb: (c: { query: (sql: string) => unknown }) => void) => void; _allConnections?: { length: number } } }).pool;
  if (!pool) return;
  pool.on('connection', (connection) => {
    connection.query(READ_COMMITTED);
  });
  // The connection TypeORM opened while initializing predates the hook: it is the only one so far.
  const opened = pool._allConnections?.length ?? 0;
  for (let i = 0; i < opened; i++) await dataSource.query(READ_COMMITTED);
  sessionReadCommitted = opened <= 1;
}
