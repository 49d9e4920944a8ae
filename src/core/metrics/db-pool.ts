import { Counter, Gauge } from 'prom-client';
import { openPools } from '../db/pool-registry';
import { transactionRetries } from '../db/transaction';
import { registry } from './registry';

let registered = false;

/**
 * MySQL pool use per pool (main: TypeORM's; transactions: the batching runner's; sequence: the
 * counters'), read from the pools at scrape time (no query); nothing on the embedded engine.
 * The fields read are mysql2's internal ones, stable across mysql2 3.x (a HostPool keeps their shape).
 */
export function registerPoolMetrics(): void {
  if (registered) return;
  registered = true;
  new Gauge({
    name: 'backoffice_db_pool_connections',
    help: 'Connections of each database pool (main, transactions, sequence): in_use (lent to a request or job), idle, max',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const { name, pool: p } of openPools()) {
        const all = p._allConnections?.length ?? 0;
        const idle = p._freeConnections?.length ?? 0;
        this.set({ pool: name, state: 'in_use' }, all - idle);
        this.set({ pool: name, state: 'idle' }, idle);
        if (p.config?.connectionLimit) this.set({ pool: name, state: 'max' }, p.config.connectionLimit);
      }
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
    help: 'Requests for a connection of each database pool waiting for one to be free',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const { name, pool: p } of openPools()) this.set({ pool: name }, p._connectionQueue?.length ?? 0);
    },
  });
}
