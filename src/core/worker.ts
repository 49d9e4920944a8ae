import crypto from 'node:crypto';
import os from 'node:os';
import { Counter, Gauge } from 'prom-client';
import { logger } from './logger';
import { registry } from './metrics';

/*
 * The one primitive every background job of the service runs on (issue 49): a name, an interval, an
 * optional lease (one replica at a time), start/stop and metrics. A tick never overlaps the previous
 * one (a slow run skips the ticks it spans); a failing run is counted and logged, never thrown;
 * `stop()` clears the timer, tells the running tick through its signal, awaits it and then the job's
 * own `onStop` (drain, release its leases). The composition root (src/workers.ts) lists every worker
 * and stops them all before the database closes. The primitive knows no business: what a run does and
 * what a lease is belong to the job.
 */

/** How a worker keeps one replica at a time: a row taken by a conditional UPDATE, say. */
export interface LeaseStrategy {
  /** Takes the lease for `owner` (or renews it when `owner` holds it); false: another holder has it. */
  acquire(owner: string, now: Date): Promise<boolean>;
  /** Gives it back (only if `owner` still holds it). */
  release(owner: string): Promise<void>;
}

export interface RunContext {
  /** Aborted when the worker is stopping: a long run stops at its next safe point. */
  signal: AbortSignal;
  /** Renews the lease (a long run, before each step that needs it); false: lost to another replica, stop. Always true without a lease. */
  renewLease(): Promise<boolean>;
}

export interface WorkerOptions {
  /** Unique per process; the `worker` label of the metrics and of the logs. */
  name: string;
  intervalMs: number;
  run: (ctx: RunContext) => Promise<unknown>;
  /** Runs once at start instead of waiting a first interval. */
  runAtStart?: boolean;
  lease?: LeaseStrategy;
  /** This replica's name in the lease (default: host:pid:random). */
  owner?: string;
  /** After the running tick has finished: the job's own teardown (drain attempts, release leases). */
  onStop?: () => Promise<unknown>;
}

const runs = new Counter({
  name: 'backoffice_worker_runs_total',
  help: 'Runs of a background worker (lease won or none needed), by worker',
  labelNames: ['worker'],
  registers: [registry],
});
const failures = new Counter({
  name: 'backoffice_worker_failures_total',
  help: 'Runs of a background worker that failed (logged, never thrown), by worker',
  labelNames: ['worker'],
  registers: [registry],
});
const leaseSkips = new Counter({
  name: 'backoffice_worker_lease_skipped_total',
  help: 'Ticks of a background worker skipped because another replica held its lease, by worker',
  labelNames: ['worker'],
  registers: [registry],
});
const lastDuration = new Gauge({
  name: 'backoffice_worker_last_run_duration_seconds',
  help: 'Duration of the last run of a background worker, by worker',
  labelNames: ['worker'],
  registers: [registry],
});

export const replicaName = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`.slice(0, 80);

/**
 * Runs `fn` under `lease` for `owner`: null when another holder has the lease; it is released after
 * `fn`, even when `fn` throws (first taken at `at`). What a worker's tick does; jobs called directly (tests, scripts) too.
 */
export async function withLease<T>(
  lease: LeaseStrategy,
  owner: string,
  fn: (renewLease: () => Promise<boolean>) => Promise<T>,
  at = new Date(),
): Promise<T | null> {
  if (!(await lease.acquire(owner, at))) return null;
  try {
    // Renewals are taken at the clock's time (`at` may be a test's or a pass's "now").
    return await fn(() => lease.acquire(owner, new Date()));
  } finally {
    await lease.release(owner).catch((err) => logger.warn('lease release failed', { owner, err: (err as Error).message }));
  }
}

export type WorkerState = 'idle' | 'running' | 'stopped';

export interface WorkerStats {
  runs: number;
  failures: number;
  leaseSkipped: number;
  lastDurationMs: number | null;
  lastError: string | null;
}

export class Worker {
  readonly name: string;
  readonly owner: string;
  private readonly options: WorkerOptions;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private started = false;
  private stopped = false;
  private readonly counts: WorkerStats = { runs: 0, failures: 0, leaseSkipped: 0, lastDurationMs: null, lastError: null };

  constructor(options: WorkerOptions) {
    if (!(options.intervalMs > 0)) throw new Error(`worker ${options.name}: the interval must be positive (${options.intervalMs})`);
    this.options = options;
    this.name = options.name;
    this.owner = options.owner ?? replicaName();
  }

  get intervalMs(): number {
    return this.options.intervalMs;
  }

  /** idle: not started (or between ticks); running: a tick under way; stopped: after stop(). */
  get state(): WorkerState {
    if (this.stopped) return 'stopped';
    return this.current ? 'running' : 'idle';
  }

  /** Aborted by stop(): a job's own loops (background runs a tick started) watch it too. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Whether its timer is set (started, not stopped). */
  get scheduled(): boolean {
    return this.timer !== null;
  }

  stats(): Readonly<WorkerStats> {
    return { ...this.counts };
  }

  start(): void {
    if (this.started) throw new Error(`worker ${this.name}: already started`);
    this.started = true;
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
    if (this.options.runAtStart) void this.tick();
  }

  /**
   * One run now unless one is under way (then it answers when that one ends): what the timer calls.
   * Never throws; the outcome is in stats() and the metrics.
   */
  tick(): Promise<void> {
    if (this.current) return this.current;
    if (this.stopped) return Promise.resolve();
    this.current = this.runOnce().finally(() => (this.current = null));
    return this.current;
  }

  /** Stops the timer, signals the running tick and awaits it, then the job's onStop. Idempotent. */
  async stop(): Promise<void> {
    const first = !this.stopped;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.current;
    if (first && this.options.onStop) {
      await this.options.onStop().catch((err) => logger.error('worker stop failed', { worker: this.name, err: (err as Error).message }));
    }
  }

  private async runOnce(): Promise<void> {
    const started = process.hrtime.bigint();
    const labels = { worker: this.name };
    const ctx = (renewLease: () => Promise<boolean>): RunContext => ({ signal: this.abort.signal, renewLease });
    try {
      const { lease, run } = this.options;
      if (lease) {
        const ran = await withLease(lease, this.owner, async (renew) => (await run(ctx(renew)), true));
        if (ran === null) {
          this.counts.leaseSkipped++;
          leaseSkips.inc(labels);
          return;
        }
      } else {
        await run(ctx(async () => true));
      }
      this.count(started, null);
    } catch (err) {
      this.count(started, err as Error);
      logger.error('background worker run failed', { worker: this.name, err: (err as Error).message });
    }
  }

  private count(started: bigint, err: Error | null): void {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const labels = { worker: this.name };
    this.counts.runs++;
    this.counts.lastDurationMs = ms;
    runs.inc(labels);
    lastDuration.set(labels, ms / 1000);
    if (err) {
      this.counts.failures++;
      this.counts.lastError = err.message;
      failures.inc(labels);
    }
  }
}

/** Stops every worker at once (each awaits its running tick); answers when all have stopped. */
export async function stopWorkers(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.stop()));
}

/** Starts every worker; refuses two of one name (their metrics would mix). */
export function startWorkers(workers: readonly Worker[]): void {
  const names = new Set<string>();
  for (const w of workers) {
    if (names.has(w.name)) throw new Error(`two background workers named ${w.name}`);
    names.add(w.name);
  }
  for (const w of workers) w.start();
}
