/*
 * The MySQL connection pools this process opens, by name, for the operators' metrics: TypeORM's
 * (reads and plain statements), the transactions' own (core/db/batching-query-runner.ts) and the
 * counters' (core/sequence). Each registers a getter; a pool not opened yet reads as absent.
 */

/** The fields of a mysql2 pool (or a HostPool, which keeps the same shape) that tell its use. */
export interface PoolFigures {
  config?: { connectionLimit?: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

export type PoolName = 'main' | 'transactions' | 'sequence';

const pools = new Map<PoolName, () => unknown>();

export function registerPool(name: PoolName, current: () => unknown): void {
  pools.set(name, current);
}

/** Every registered pool that is open now. */
export function openPools(): { name: PoolName; pool: PoolFigures }[] {
  const out: { name: PoolName; pool: PoolFigures }[] = [];
  for (const [name, current] of pools) {
    const pool = current() as PoolFigures | undefined;
    if (pool) out.push({ name, pool });
  }
  return out;
}
