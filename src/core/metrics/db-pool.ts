import { Counter, Gauge } from 'prom-client';
import { dataSource } from '../db/data-source';
import { transactionRetries } from '../db/transaction';
import { registry } from './registry';

/** The fields of mysql2's pool that tell its use (internal, stable across mysql2 3.x). */
interface Mysql2Pool {
  config?: { connectionLimit?: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

const pool = (): Mysql2Pool | undefined => (dataSource.isInitialized ? (dataSource.driver as unknown as { pool?: Mysql2Pool }).pool : undefined);

let registered = false;

/** Main MySQL pool use, read from the pool at scrape time (no query); nothing on the embedded engine. */
export function registerPoolMetrics(): void {
  if (registered) return;
  registered = true;
  new Gauge({
    name: 'backoffice_db_pool_connections',
    help: 'Connections of the main database pool: in_use (lent to a request or job), idle, max (DB_POOL_SIZE)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      const all = p._allConnections?.length ?? 0;
      const idle = p._freeConnections?.length ?? 0;
      this.set({ state: 'in_use' }, all - idle);
      this.set({ state: 'idle' }, idle);
      if (p.config?.connectionLimit) this.set({ state: 'max' }, p.config.connectionLimit);
    },
  });
  new Counter({
    name: 'backoffice_db_transaction_retries_total',
    help: 'Transactions run again after a deadlock or, on Galera, a certification conflict',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(transactionRetries.count);
    },
  });
  new Gauge({
    name: 'backoffice_db_pool_waiting',
    help: 'Requests for a connection of the main pool waiting for one to be free',
    registers: [registry],
    collect() {
      const p = pool();
      if (p) this.set(p._connectionQueue?.length ?? 0);
    },
  });
}
