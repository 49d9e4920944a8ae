import mysql from 'mysql2';
import type { DbHost } from '../config/db-url';

/*
 * A connection pool over several hosts of one database (the nodes of a Galera cluster), shaped like
 * mysql2's own pool so TypeORM, the sequence pool and the pool metrics use it unchanged. It is
 * mysql2's PoolCluster: each new connection goes to the next host in turn; a host that refuses a
 * connection is left out for `retryMs` and then tried again, so a dead node drops out and a node
 * that comes back is used again without a restart. Connections a dead node held fail on their
 * next statement (the request answers 503, docs/scale-out.md) and are discarded by the pool.
 */

type Callback<T> = (err: Error | null, value?: T) => void;

/** What TypeORM, connect.ts, the metrics and the sequence service use of a mysql2 pool. */
export interface MysqlPoolLike {
  getConnection(cb: Callback<mysql.PoolConnection>): void;
  query(sql: string, values: unknown[], cb: Callback<unknown>): void;
  end(cb?: (err?: Error | null) => void): void;
  on(event: 'connection', listener: (connection: mysql.PoolConnection) => void): unknown;
}

/** mysql2's per-host pool internals read by the metrics (stable across mysql2 3.x). */
interface NodePool {
  config: { connectionLimit?: number };
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  on(event: string, listener: (...args: never[]) => void): unknown;
}

interface ClusterInternals {
  _nodes: Record<string, { pool: NodePool }>;
}

export class HostPool implements MysqlPoolLike {
  private readonly cluster: mysql.PoolCluster;
  private readonly listeners: ((connection: mysql.PoolConnection) => void)[] = [];
  readonly config: { connectionLimit: number };

  constructor(options: mysql.PoolOptions, readonly hosts: readonly DbHost[], retryMs: number) {
    this.cluster = mysql.createPoolCluster({ canRetry: true, removeNodeErrorCount: 1, restoreNodeTimeout: retryMs, defaultSelector: 'RR' });
    for (const { host, port } of hosts) this.cluster.add(`${host}:${port}`, { ...options, host, port });
    // Every host gets the whole limit: one survivor can carry the full load.
    this.config = { connectionLimit: (options.connectionLimit ?? 10) * hosts.length };
    for (const node of this.nodes()) node.on('connection', (c: mysql.PoolConnection) => this.listeners.forEach((l) => l(c)));
  }

  private nodes(): NodePool[] {
    return Object.values((this.cluster as unknown as ClusterInternals)._nodes).map((n) => n.pool);
  }

  getConnection(cb: Callback<mysql.PoolConnection>): void {
    this.cluster.getConnection('*', cb as never);
  }

  query(sql: string, values: unknown[], cb: Callback<unknown>): void {
    this.getConnection((err, connection) => {
      if (err || !connection) return cb(err);
      connection.query(sql, values, (queryErr, result) => {
        connection.release();
        cb(queryErr, result);
      });
    });
  }

  end(cb?: (err?: Error | null) => void): void {
    this.cluster.end(cb ?? (() => undefined));
  }

  on(event: 'connection', listener: (connection: mysql.PoolConnection) => void): this {
    if (event === 'connection') this.listeners.push(listener);
    return this;
  }

  // The figures the pool metrics read from a single mysql2 pool, summed over the hosts.
  get _allConnections(): { length: number } {
    return { length: this.nodes().reduce((n, p) => n + p._allConnections.length, 0) };
  }

  get _freeConnections(): { length: number } {
    return { length: this.nodes().reduce((n, p) => n + p._freeConnections.length, 0) };
  }

  get _connectionQueue(): { length: number } {
    return { length: this.nodes().reduce((n, p) => n + p._connectionQueue.length, 0) };
  }
}

/** One host: mysql2's own pool; several: a HostPool over them. */
export function createMysqlPool(options: mysql.PoolOptions, hosts: readonly DbHost[], retryMs: number): MysqlPoolLike {
  if (hosts.length <= 1) return mysql.createPool(options) as unknown as MysqlPoolLike;
  return new HostPool(options, hosts, retryMs);
}
