import crypto from 'node:crypto';
import os from 'node:os';
import { sefazConfig } from '../../core/config/sefaz';
import type { TenantContext } from '../../core/context';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { AppError } from '../../core/errors';
import { logger } from '../../core/logger';
import { Worker } from '../../core/worker';
import { summariesAwaitingCiencia } from '../inbound-nfe';
import { DfeSyncFilial, filialsWithDfeSync } from '../tenancy';
import { clientFor, loadFilial } from '../sefaz';
import { dueSchedules, ensureSchedules, filialsWithCertificate, releaseLeasesOf, updateSchedule } from './dfe-schedule.repository';
import { findState } from './dfe-state.repository';
import { syncDfe, SyncResult } from './dfe-sync.service';
import type { CienciaRefusal, DfeSchedule, ScheduleOutcome } from './entities/dfe-schedule.entity';
import { manifestInbound } from './manifestation.service';
import { nsuToBigInt } from '../authority';

/*
 * The scheduled DF-e sync (SPEC §4, protocol notes §3.3, §6.1): every filial with the sync on and a
 * certificate is synced at its interval, never before the authority's `nextAllowedAt` (the quiet hour
 * after 137 / reaching maxNSU, the 656 block), gaps filled with consNSU by the sync itself, and —
 * with the filial's autoCiencia — ciência sent for new summaries so their full XML arrives as new NSUs
 * of the next run. Safe with any number of replicas: a replica runs a filial only under a lease on
 * its schedule row, taken with a conditional update; a dead replica's lease expires and another takes
 * over. Everything it knows is in the database, so a restart continues where the last run stopped.
 */

export interface SchedulerOptions {
  /** The clock every wait, lease and next run is measured by (tests run a fast one with the simulator). */
  now?: () => Date;
  /** This replica's name in the leases (default: host, pid and a random suffix). */
  owner?: string;
  leaseMs?: number;
  cienciaPerRun?: number;
  /** Filiais looked at per tick. */
  batch?: number;
}

export interface FilialRunReport {
  companyId: number;
  filialId: number;
  outcome: ScheduleOutcome;
  received: number;
  ciencias: number;
  nextRunAt: Date;
}

/** Refusals kept per filial (newest); older ones are tried again. */
const MAX_REFUSALS = 200;
const RETRY_SOON_MS = 5 * 60_000;
const MINUTE = 60_000;

const defaultOwner = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`.slice(0, 80);

const schedulerContext = (companyId: number, filialId: number): TenantContext => ({
  companyId,
  filialId,
  actor: 'dfe-scheduler',
  grantedFiliais: [filialId],
  scopes: ['nfe:write'],
});

const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/** 5, 10, 20 … minutes after consecutive failures, never more than the filial's interval. */
const backoffMs = (errors: number, intervalMs: number) => Math.min(intervalMs, 5 * MINUTE * 2 ** Math.max(0, errors - 1));

export class DfeScheduler {
  readonly owner: string;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly cienciaPerRun: number;
  private readonly batch: number;
  private w: Worker | null = null;
  private stopped = false;

  constructor(options: SchedulerOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.owner = options.owner ?? defaultOwner();
    this.leaseMs = options.leaseMs ?? sefazConfig.scheduler.leaseMs;
    this.cienciaPerRun = options.cienciaPerRun ?? sefazConfig.scheduler.cienciaPerRun;
    this.batch = options.batch ?? 50;
  }

  /** The scheduler on a timer (src/workers.ts); stopping it lets a run in progress finish and frees this replica's leases. */
  worker(tickMs = sefazConfig.scheduler.tickMs): Worker {
    if (this.w && this.w.state !== 'stopped') return this.w;
    this.stopped = false;
    const w = new Worker({
      name: 'dfe-scheduler',
      intervalMs: tickMs,
      owner: this.owner,
      run: () => this.tick(),
      onStop: () => releaseLeasesOf(this.owner),
    });
    w.signal.addEventListener('abort', () => (this.stopped = true));
    return (this.w = w);
  }

  start(tickMs = sefazConfig.scheduler.tickMs): void {
    this.worker(tickMs).start();
  }

  /** Stops ticking, lets a run in progress finish and frees this replica's leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.w && this.w.state !== 'stopped') await this.w.stop();
    else await releaseLeasesOf(this.owner);
  }

  /** One pass: every due filial whose lease this replica wins is run. */
  async tick(): Promise<FilialRunReport[]> {
    const filiais = await filialsWithDfeSync(readerOf(NO_UNIT));
    const byFilial = new Map(filiais.map((f) => [f.filialId, f]));
    await ensureSchedules(filiais, this.now());
    const due = await dueSchedules(this.now(), this.batch);
    const reports: FilialRunReport[] = [];
    for (const schedule of due) {
      if (this.stopped) break;
      const filial = byFilial.get(schedule.filialId);
      // A filial whose sync was turned off keeps its row (history) but is not run.
      if (!filial || filial.companyId !== schedule.companyId) continue;
      const report = await this.runIfLeased(schedule, filial);
      if (report) reports.push(report);
    }
    return reports;
  }

  private async runIfLeased(schedule: DfeSchedule, filial: DfeSyncFilial): Promise<FilialRunReport | null> {
    const now = this.now();
    const won = await updateSchedule(schedule, { leaseOwner: this.owner, leaseUntil: new Date(now.getTime() + this.leaseMs) });
    if (!won) return null;
    try {
      return await this.run(schedule, filial, now);
    } catch (err) {
      // Bookkeeping failed (database trouble): leave the lease to expire; the next owner starts clean.
      logger.error('DF-e scheduled run failed', { companyId: filial.companyId, filialId: filial.filialId, err: (err as Error).message });
      return null;
    }
  }

  /** Extends this replica's lease before a step that calls the authority; false when it was lost. */
  private async renew(schedule: DfeSchedule): Promise<boolean> {
    return updateSchedule(schedule, { leaseUntil: new Date(this.now().getTime() + this.leaseMs) }, this.owner);
  }

  private async run(schedule: DfeSchedule, f: DfeSyncFilial, startedAt: Date): Promise<FilialRunReport> {
    const intervalMs = Math.max(60, f.dfeSyncIntervalMinutes) * MINUTE;
    const ctx = schedulerContext(f.companyId, f.filialId);
    const base = { lastRunStartedAt: startedAt, runs: schedule.runs + 1 };

    const finish = async (outcome: ScheduleOutcome, nextRunAt: Date, values: Partial<DfeSchedule> = {}): Promise<FilialRunReport> => {
      const done = await updateSchedule(
        schedule,
        { ...base, lastOutcome: outcome, lastRunFinishedAt: this.now(), nextRunAt, leaseOwner: null, leaseUntil: null, ...values },
        this.owner,
      );
      if (!done)
        logger.warn('DF-e schedule lease lost before the run finished', {
          companyId: f.companyId,
          filialId: f.filialId,
          owner: this.owner,
        });
      return {
        companyId: f.companyId,
        filialId: f.filialId,
        outcome,
        received: values.lastReceived ?? 0,
        ciencias: values.lastCiencias ?? 0,
        nextRunAt,
      };
    };

    if (!(await filialsWithCertificate(f.companyId, [f.filialId])).has(f.filialId)) {
      return finish('NO_CERTIFICATE', new Date(startedAt.getTime() + intervalMs), {
        lastMessage: 'The filial has no A1 certificate; upload one to start the scheduled sync',
        lastReceived: 0,
        lastCiencias: 0,
      });
    }

    // Never a call before the authority allows it (a manual `consultar` may have moved the wait).
    const before = await findState(f.companyId, f.filialId);
    if (before?.nextAllowedAt && before.nextAllowedAt.getTime() > startedAt.getTime()) {
      return finish('WAITING', later(before.nextAllowedAt, new Date(startedAt.getTime() + MINUTE)), { lastReceived: 0, lastCiencias: 0 });
    }

    let result: SyncResult;
    try {
      if (!(await this.renew(schedule))) throw new Error('lease lost');
      result = await syncDfe(ctx, { now: this.now });
    } catch (err) {
      return this.failed(schedule, f, err, intervalMs, finish);
    }

    const foreign = this.foreignConsumer(before?.pendingGaps ?? null, result);
    const received = result.received;
    const blocked = result.cStat === '656';
    const { ciencias, refusals, cienciaError } = !f.autoCiencia
      ? { ciencias: 0, refusals: null, cienciaError: null }
      : await this.sendCiencias(schedule, f, ctx);

    const state = await findState(f.companyId, f.filialId);
    const allowedAt = state?.nextAllowedAt ?? null;
    // Caught up (or blocked): the next run waits for the authority and the filial's interval; pages
    // still to read (the per-run page cap) continue on the next tick, no quiet period applying.
    const nextRunAt = allowedAt ? later(allowedAt, new Date(startedAt.getTime() + intervalMs)) : new Date(this.now().getTime() + MINUTE);
    const values: Partial<DfeSchedule> = {
      lastCStat: result.cStat?.slice(0, 3) ?? null,
      lastMessage: (cienciaError ?? result.xMotivo ?? '').slice(0, 500) || null,
      lastReceived: received,
      totalReceived: schedule.totalReceived + received,
      lastCiencias: ciencias,
      consecutiveErrors: cienciaError ? schedule.consecutiveErrors + 1 : 0,
      ...(cienciaError ? { lastErrorAt: this.now(), lastErrorCode: 'CIENCIA_FAILED' } : {}),
      ...(refusals ? { cienciaRefusals: refusals } : {}),
      ...(foreign
        ? {
            foreignConsumerAt: this.now(),
            foreignConsumerReason: foreign.slice(0, 500),
            foreignConsumerDetections: schedule.foreignConsumerDetections + 1,
          }
        : {}),
    };
    const outcome: ScheduleOutcome = blocked ? 'BLOCKED' : cienciaError ? 'PARTIAL' : 'OK';
    return finish(outcome, nextRunAt, values);
  }

  /**
   * "Another system is consuming this CNPJ": the authority answered 656 naming a position ahead of
   * ours (its NSUs were taken by someone else: the skipped range became gaps), or 656 although this
   * service had waited as asked.
   */
  private foreignConsumer(gapsBefore: [string, string][] | null, r: SyncResult): string | null {
    if (r.cStat !== '656') return null;
    const count = (gaps: [string, string][] | null) =>
      (gaps ?? []).reduce((n, [a, b]) => n + Number(nsuToBigInt(b) - nsuToBigInt(a) + 1n), 0);
    if (r.pendingGapNsus > count(gapsBefore)) {
      return `The authority answered 656 at NSU ${r.ultNSU}, ahead of this service's position: another system is consuming this CNPJ's distribution; the ${r.pendingGapNsus} skipped NSU(s) are fetched one by one. (${r.xMotivo ?? ''})`;
    }
    return `The authority answered 656 although this service waited as asked: another system is probably querying this CNPJ. (${r.xMotivo ?? ''})`;
  }

  private async sendCiencias(
    schedule: DfeSchedule,
    f: DfeSyncFilial,
    ctx: TenantContext,
  ): Promise<{ ciencias: number; refusals: CienciaRefusal[] | null; cienciaError: string | null }> {
    const refused = schedule.cienciaRefusals ?? [];
    const pending = await summariesAwaitingCiencia(
      readerOf(NO_UNIT),
      f.companyId,
      f.filialId,
      this.cienciaPerRun,
      refused.map((r) => r.accessKey),
    );
    if (!pending.length) return { ciencias: 0, refusals: null, cienciaError: null };
    const filial = await loadFilial(f.companyId, f.filialId, readerOf(NO_UNIT));
    const client = await clientFor(filial);
    const added: CienciaRefusal[] = [];
    let ciencias = 0;
    let cienciaError: string | null = null;
    for (const [i, inbound] of pending.entries()) {
      if (this.stopped || (i % 10 === 0 && !(await this.renew(schedule)))) break;
      try {
        await manifestInbound(ctx, filial, inbound, { event: 'CIENCIA' }, client);
        ciencias++;
      } catch (err) {
        const e = err as AppError;
        if (e instanceof AppError && e.kind === 'business_rule') {
          // Refused for this record (e.g. 596 past the deadline): not asked again each run.
          added.push({
            accessKey: inbound.accessKey,
            cStat: (e.extensions.cStat as string | undefined) ?? null,
            message: e.message.slice(0, 300),
            at: this.now().toISOString(),
          });
          continue;
        }
        // The authority or the network failed: stop here, the rest go next run.
        cienciaError = `Automatic ciência stopped: ${e.message}`;
        break;
      }
    }
    return { ciencias, refusals: added.length ? [...refused, ...added].slice(-MAX_REFUSALS) : null, cienciaError };
  }

  private async failed(
    schedule: DfeSchedule,
    f: DfeSyncFilial,
    err: unknown,
    intervalMs: number,
    finish: (o: ScheduleOutcome, next: Date, v?: Partial<DfeSchedule>) => Promise<FilialRunReport>,
  ): Promise<FilialRunReport> {
    const e = err as AppError;
    const now = this.now();
    const state = await findState(f.companyId, f.filialId);
    const allowedAt = state?.nextAllowedAt ?? now;
    if (e instanceof AppError && e.code === 'SEFAZ_WAIT_REQUIRED') {
      return finish('WAITING', later(allowedAt, new Date(now.getTime() + MINUTE)), { lastReceived: 0, lastCiencias: 0 });
    }
    if (e instanceof AppError && e.code === 'SEFAZ_SYNC_IN_PROGRESS') {
      // A manual `consultar` holds the filial right now: look again shortly.
      return finish('WAITING', later(allowedAt, new Date(now.getTime() + RETRY_SOON_MS)), { lastReceived: 0, lastCiencias: 0 });
    }
    const errors = schedule.consecutiveErrors + 1;
    logger.warn('DF-e scheduled sync failed', { companyId: f.companyId, filialId: f.filialId, code: e.code, err: e.message });
    return finish('ERROR', later(allowedAt, new Date(now.getTime() + backoffMs(errors, intervalMs))), {
      lastErrorAt: now,
      lastErrorCode: (e instanceof AppError ? e.code : 'INTERNAL_ERROR').slice(0, 60),
      lastMessage: (e.message ?? String(err)).slice(0, 500),
      lastCStat: e instanceof AppError && typeof e.extensions.cStat === 'string' ? e.extensions.cStat.slice(0, 3) : schedule.lastCStat,
      consecutiveErrors: errors,
      lastReceived: 0,
      lastCiencias: 0,
    });
  }
}
