import { AsyncLocalStorage } from 'node:async_hooks';
import mysql from 'mysql2';
import type { DbHost } from '../config/db-url';
import { isNotInPrimaryComponent } from './db-errors';

/*
 * A connection pool over several hosts of one database (the nodes of a Galera cluster), shaped like
 * mysql2's own pool so TypeORM, the transactions' batching pool, the sequence pool and the pool
 * metrics use it unchanged. Each host has a mysql2 pool; each new connection goes to the next host
 * in service, in turn.
 *
 * A host is left out of service (for this process: every pool over it shares its health) when
 * - it refuses a connection (its server is down),
 * - a new connection finds its node not Synced (joining, donor, desynced) or not ready (not in the
 *   primary component): one `SHOW STATUS` when the connection opens, the first statement sent on it,
 * - a statement on one of its connections answers 1047 (WSREP has not yet prepared node…),
 * and is tried again after a back-off (DB_HOST_RETRY_MS, doubling per failed try up to 8×). While a
 * host is on probation (it was left out and has not passed a check since) it serves from new
 * connections only (its old ones are closed as they come up); the first whose check finds it Synced
 * puts it back. Connections a
 * dead node held fail on their next statement (the request answers 503, docs/scale-out.md) and are
 * discarded by their pool.
 *
 * Nothing waits without a deadline (a node can stop answering without closing its sockets: a
 * partition, a frozen process): taking a connection from a host, and its state check, are bounded by
 * `acquireTimeoutMs` — past it the host is left out (POOL_ACQUIRE_TIMEOUT) and the next one is tried —
 * and every statement on a connection by `statementTimeoutMs` (mysql2 closes the connection:
 * PROTOCOL_SEQUENCE_TIMEOUT). Both are "database unavailable" to a request (503 with Retry-After).
 * Waiting for a connection while all of a host's are in use is not the host's fault: that wait is
 * bounded by the longer of the two deadlines and ends in POOL_BUSY (503), the host staying in service.
 *
 * One host (a single server) gets the same pool and deadlines, without the parts that only make
 * sense with somewhere else to go: no node-state check and never left out — a deadline passed is
 * the request's 503, and the next request tries the server again.
 */

type Callback<T> = (err: Error | null, value?: T) => void;

/** What TypeORM, connect.ts, the metrics and the sequence service use of a mysql2 pool. */
export interface MysqlPoolLike {
  getConnection(cb: Callback<mysql.PoolConnection>): void;
  query(sql: string, values: unknown[], cb: Callback<unknown>): void;
  end(cb?: (err?: Error | null) => void): void;
  on(event: 'connection', listener: (connection: mysql.PoolConnection) => void): unknown;
}

/** mysql2's pool internals read by the metrics (stable across mysql2 3.x). */
interface Mysql2PoolInternals {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
}

/** One host as this process sees it, shared by every pool over it. */
export interface HostHealth {
  readonly name: string;
  /** Left out until this time (Date.now() ms); 0 when in service. */
  offlineUntil: number;
  /** Failed tries in a row (refused, not Synced): each doubles the back-off. */
  failures: number;
  /** Left out since the last check that found it Synced: its connections are checked before use. */
  probation: boolean;
  /** Why it was last left out. */
  reason: string | null;
  /** Times left out since the process started, and of those, found up but not Synced/ready. */
  timesLeftOut: number;
  timesNotSynced: number;
}

const health = new Map<string, HostHealth>();

/** The health of `host:port` in this process. */
export function hostHealth(name: string): HostHealth {
  let h = health.get(name);
  if (!h)
    health.set(name, (h = { name, offlineUntil: 0, failures: 0, probation: false, reason: null, timesLeftOut: 0, timesNotSynced: 0 }));
  return h;
}

/** Every host back in service, nothing remembered (tests). */
export function resetHostHealth(): void {
  health.clear();
}

const MAX_BACKOFF = 8;

/** Leaves a host out for the back-off of its failures so far. */
export function leaveOut(h: HostHealth, retryMs: number, reason: string): void {
  h.failures++;
  h.offlineUntil = Date.now() + retryMs * Math.min(MAX_BACKOFF, 2 ** (h.failures - 1));
  h.probation = true;
  h.reason = reason;
  h.timesLeftOut++;
  if (/not Synced|^1047|^non-Primary/.test(reason)) h.timesNotSynced++;
}

function backInService(h: HostHealth): void {
  h.failures = 0;
  h.offlineUntil = 0;
  h.probation = false;
  h.reason = null;
}

/** The node's Galera state, read on a new connection (allowed on a node that is not ready). */
export const NODE_STATE_SQL = "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state', 'wsrep_local_state_comment', 'wsrep_ready')";

/**
 * Why a node may not serve, from the rows of NODE_STATE_SQL; null when it may. A server without
 * Galera (no wsrep_local_state) always may; a Galera node only when Synced (4) and ready.
 */
export function nodeStateProblem(rows: readonly { Variable_name?: unknown; Value?: unknown }[]): string | null {
  const status = Object.fromEntries(rows.map((r) => [String(r.Variable_name).toLowerCase(), String(r.Value)]));
  if (status.wsrep_local_state === undefined) return null;
  if (status.wsrep_local_state === '4' && status.wsrep_ready === 'ON') return null;
  return `node not Synced: ${status.wsrep_local_state_comment ?? `state ${status.wsrep_local_state}`}, wsrep_ready ${status.wsrep_ready ?? '?'}`;
}

/**
 * 1047 ER_UNKNOWN_COM_ERROR: "WSREP has not yet prepared node for application use"; or a COMMIT
 * refused because the node is not in the primary component (db-errors.ts).
 */
export const isNodeNotReady = (err: unknown): boolean => (err as { errno?: number })?.errno === 1047 || isNotInPrimaryComponent(err);

const isPlainObject = (v: unknown): v is Record<string, unknown> & { timeout?: number } =>
  !!v && Object.getPrototypeOf(v) === Object.prototype;

const poolError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

interface Host {
  health: HostHealth;
  pool: mysql.Pool;
}

/** The deadlines of a HostPool (DB_ACQUIRE_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS). */
export interface HostPoolDeadlines {
  acquireTimeoutMs: number;
  statementTimeoutMs: number;
}

/** 0 for `statementTimeoutMs`: statements without a deadline. */
export const DEFAULT_DEADLINES: HostPoolDeadlines = { acquireTimeoutMs: 5000, statementTimeoutMs: 60000 };

const undeadlined = new AsyncLocalStorage<true>();

/**
 * `work` with no statement deadline for the statements it sends (schema migrations: an ALTER TABLE
 * of a large table may rightly take longer than any request's statement).
 */
export function withoutStatementDeadline<T>(work: () => Promise<T>): Promise<T> {
  return undeadlined.run(true, work);
}

/** `fn(done)` with `onLate` given what a callback brings after the deadline already answered. */
function withDeadline<T>(
  ms: number,
  fn: (done: (err: Error | null, value?: T) => void) => void,
  onTimeout: () => void,
  onLate: (value?: T) => void,
  cb: (err: Error | null, value?: T) => void,
): void {
  let settled = false;
  const timer = setTimeout(() => {
    settled = true;
    onTimeout();
  }, ms);
  fn((err, value) => {
    if (settled) return onLate(value);
    settled = true;
    clearTimeout(timer);
    cb(err, value);
  });
}

export class HostPool implements MysqlPoolLike {
  private readonly entries: Host[];
  private readonly listeners: ((connection: mysql.PoolConnection) => void)[] = [];
  /** The check of each connection opened and not yet handed out. */
  private readonly checks = new WeakMap<object, Promise<string | null>>();
  private turn = 0;
  private closed = false;
  /** One host: nowhere else to go, so it is never left out and its node state is not checked. */
  private readonly single: boolean;
  readonly config: { connectionLimit: number };

  constructor(
    options: mysql.PoolOptions,
    readonly hosts: readonly DbHost[],
    private readonly retryMs: number,
    private readonly deadlines: HostPoolDeadlines = DEFAULT_DEADLINES,
  ) {
    this.single = hosts.length === 1;
    this.entries = hosts.map(({ host, port }) => {
      const entry: Host = {
        health: hostHealth(`${host}:${port}`),
        pool: mysql.createPool({ connectTimeout: deadlines.acquireTimeoutMs, ...options, host, port }),
      };
      entry.pool.on('connection', (connection) => {
        // The node's state is read first, before the listeners' session setup (a causal-read
        // setting would make the check itself wait on a node that is not ready).
        if (!this.single)
          this.checks.set(
            connection,
            new Promise((resolve) =>
              connection.query({ sql: NODE_STATE_SQL, timeout: deadlines.acquireTimeoutMs }, (err, rows) =>
                resolve(err ? `state check failed: ${err.message}` : nodeStateProblem(rows as { Variable_name: string; Value: string }[])),
              ),
            ),
          );
        this.watch(entry, connection);
        for (const listener of this.listeners) listener(connection);
      });
      return entry;
    });
    // Every host gets the whole limit: one survivor can carry the full load.
    this.config = { connectionLimit: (options.connectionLimit ?? 10) * hosts.length };
  }

  /** Hosts in service now, starting from the next in turn. */
  private candidates(): Host[] {
    const now = Date.now();
    const start = this.turn++ % this.entries.length;
    const order = [...this.entries.slice(start), ...this.entries.slice(0, start)];
    return order.filter((e) => e.health.offlineUntil <= now);
  }

  getConnection(cb: Callback<mysql.PoolConnection>): void {
    if (this.closed) return cb(poolError('POOL_CLOSED', 'The database pool is closed'));
    const candidates = this.candidates();
    if (!candidates.length)
      return cb(
        poolError(
          'POOL_NONEONLINE',
          `No database host in service (${this.entries.map((e) => `${e.health.name}: ${e.health.reason}`).join('; ')})`,
        ),
      );
    this.tryHosts(candidates, cb);
  }

  /** Leaves a host out, when there is another to go to. */
  private rest(entry: Host, reason: string): void {
    if (!this.single) leaveOut(entry.health, this.retryMs, reason);
  }

  /** Every connection of the host's pool is in use: a new request queues for one. */
  private saturated(entry: Host): boolean {
    const p = entry.pool as unknown as Mysql2PoolInternals & { config: { connectionLimit: number } };
    return p._freeConnections.length === 0 && p._allConnections.length >= p.config.connectionLimit;
  }

  private tryHosts(candidates: Host[], cb: Callback<mysql.PoolConnection>, lastError?: Error): void {
    const entry = candidates.shift();
    if (!entry) return cb(lastError ?? poolError('POOL_NONEONLINE', 'No database host in service'));
    const { acquireTimeoutMs, statementTimeoutMs } = this.deadlines;
    const queued = this.saturated(entry);
    const waitMs = queued ? Math.max(acquireTimeoutMs, statementTimeoutMs) : acquireTimeoutMs;
    const timedOut = () => {
      // A busy host is a busy service, not a lost node: the request answers 503, the host serves on.
      if (queued) return cb(poolError('POOL_BUSY', `${entry.health.name}: every connection in use for ${waitMs} ms`));
      const err = poolError('POOL_ACQUIRE_TIMEOUT', `${entry.health.name}: no connection within ${acquireTimeoutMs} ms`);
      this.rest(entry, `POOL_ACQUIRE_TIMEOUT: ${err.message}`);
      this.tryHosts(candidates, cb, err);
    };
    // A connection that comes after its deadline is not handed to anybody: the host is out already.
    const late = (connection?: mysql.PoolConnection) => connection?.destroy();
    withDeadline<mysql.PoolConnection>(
      waitMs,
      (done) => entry.pool.getConnection(done),
      timedOut,
      late,
      (err, connection) => {
        if (err || !connection) {
          this.rest(entry, `${(err as { code?: string } | null)?.code ?? 'error'}: ${err?.message}`);
          return this.tryHosts(candidates, cb, err ?? undefined);
        }
        const check = this.checks.get(connection);
        if (!check) {
          if (!entry.health.probation) return cb(null, connection);
          // A host on probation serves from new connections only (each checked as it opens).
          connection.destroy();
          return this.tryHosts([entry, ...candidates], cb, lastError);
        }
        this.checks.delete(connection);
        void check.then((problem) => {
          if (problem) {
            connection.destroy();
            this.rest(entry, problem);
            return this.tryHosts(candidates, cb, poolError('ER_UNKNOWN_COM_ERROR', `${entry.health.name}: ${problem}`));
          }
          if (entry.health.probation) backInService(entry.health);
          cb(null, connection);
        });
      },
    );
  }

  /**
   * Every statement of the connection gets the statement deadline (unless it names its own), and a
   * 1047 on any of them leaves its host out (it left the primary component, or resyncs).
   */
  private watch(entry: Host, connection: mysql.PoolConnection): void {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original is called below with the connection as `this`
    const query = connection.query as (...args: unknown[]) => unknown;
    const restHost = (reason: string) => {
      if (entry.health.offlineUntil <= Date.now()) this.rest(entry, reason);
    };
    const timeout = this.deadlines.statementTimeoutMs;
    (connection as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
      // Only a statement with a callback: a timed-out one without any would throw its error as an event.
      if (timeout > 0 && !undeadlined.getStore() && args.some((a) => typeof a === 'function')) {
        if (typeof args[0] === 'string') args[0] = { sql: args[0], timeout };
        else if (isPlainObject(args[0]) && args[0].timeout === undefined) args[0] = { ...args[0], timeout };
      }
      const at = args.findIndex((a) => typeof a === 'function');
      if (at >= 0) {
        const done = args[at] as (err: unknown, ...rest: unknown[]) => unknown;
        args[at] = function (this: unknown, err: unknown, ...rest: unknown[]) {
          if (err && isNodeNotReady(err))
            restHost(`${(err as { errno?: number }).errno === 1047 ? '1047' : 'non-Primary'}: ${(err as Error).message}`);
          if (err && (err as { code?: string }).code === 'PROTOCOL_SEQUENCE_TIMEOUT') {
            // The answer may still come: the connection is not reused, and its host rests like a refused one.
            (connection as mysql.PoolConnection).destroy();
            restHost(`PROTOCOL_SEQUENCE_TIMEOUT: no answer within ${timeout} ms`);
          }
          return done.call(this, err, ...rest);
        };
      }
      return query.apply(this, args);
    };
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
    this.closed = true;
    Promise.all(this.entries.map((e) => new Promise<Error | null>((resolve) => e.pool.end((err) => resolve(err ?? null))))).then(
      (errors) => cb?.(errors.find(Boolean) ?? null),
      (err: Error) => cb?.(err),
    );
  }

  on(event: 'connection', listener: (connection: mysql.PoolConnection) => void): this {
    if (event === 'connection') this.listeners.push(listener);
    return this;
  }

  /** The hosts' health as this process sees it (metrics, tests). */
  health(): HostHealth[] {
    return this.entries.map((e) => ({ ...e.health }));
  }

  // The figures the pool metrics read from a single mysql2 pool, summed over the hosts.
  private sum(field: keyof Mysql2PoolInternals): { length: number } {
    return { length: this.entries.reduce((n, e) => n + (e.pool as unknown as Mysql2PoolInternals)[field].length, 0) };
  }

  get _allConnections(): { length: number } {
    return this.sum('_allConnections');
  }

  get _freeConnections(): { length: number } {
    return this.sum('_freeConnections');
  }

  get _connectionQueue(): { length: number } {
    return this.sum('_connectionQueue');
  }
}

/** A HostPool over the hosts (one server included: the deadlines hold there too). */
export function createMysqlPool(
  options: mysql.PoolOptions,
  hosts: readonly DbHost[],
  retryMs: number,
  deadlines: HostPoolDeadlines = DEFAULT_DEADLINES,
): MysqlPoolLike {
  return new HostPool(options, hosts, retryMs, deadlines);
}
