import { dataSource } from './data-source';
import { isMysql } from './engine';
import { serverTraits, sessionSetup } from './server-traits';

/**
 * Opens the database. On MySQL every connection of TypeORM's pool is set up once, when it is created
 * (READ COMMITTED; on Galera causal reads too: server-traits.ts; the transactions' batching pool does
 * the same, batching-query-runner.ts), so no statement needs a `SET` of its own.
 */
export async function openDatabase(): Promise<void> {
  await dataSource.initialize();
  if (!isMysql) return;
  const [wsrep] = (await dataSource.query("SHOW VARIABLES LIKE 'wsrep_on'")) as { Value?: string }[];
  serverTraits.galera = wsrep?.Value === 'ON';
  const pool = (
    dataSource.driver as unknown as {
      pool?: { on: (e: string, cb: (c: { query: (sql: string) => unknown }) => void) => void; _allConnections?: { length: number } };
    }
  ).pool;
  if (!pool) return;
  const setup = sessionSetup();
  pool.on('connection', (connection) => {
    for (const sql of setup) connection.query(sql);
  });
  // The connection TypeORM opened while initializing predates the hook: it is the only one so far.
  const opened = pool._allConnections?.length ?? 0;
  for (let i = 0; i < opened; i++) for (const sql of setup) await dataSource.query(sql);
}
