import { nfeConfig } from '../../../core/config/nfe';
import type { ActorContext } from '../../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../../core/db/transaction';
import { ConflictError } from '../../../core/errors';
import { logger } from '../../../core/logger';
import { replicaName, Worker } from '../../../core/worker';
import { Filial } from '../../tenancy';
import type { NfeBatchFile } from '../entities/nfe-batch-file.entity';
import type { NfeBatchJob } from '../entities/nfe-batch-job.entity';
import { decompressXml } from '../xml-storage';
import type { EntityManager } from 'typeorm';
import { BatchOutcome, PreparedBatchDocument, handlerOfKind, invalid, invalidFromError, isOutcome } from './batch-handlers';
import { recordAudit } from '../../../core/audit/audit.service';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { BATCH_AUDIT_ENTITY, batchEventData } from './batch-events';
import { claimableJobs, findJob, pendingFiles, settleFile, updateJob } from './batch.repository';

/*
 * Works a batch job's files one by one. Each file is one transaction: what it stages (the inbound
 * record, its events, audit and outbox rows), its outcome and the job's counters commit together, so a
 * process killed at any point leaves every file either done or untouched. The job is held under a
 * lease that each file's commit extends; a dead process's lease expires and the worker of any process
 * (or the next upload on it) resumes with the files still PENDING. A file is never done twice: its
 * outcome is written only while it is PENDING and only by the lease holder.
 */

export interface BatchRunnerOptions {
  now?: () => Date;
  owner?: string;
  leaseMs?: number;
  /** Called after each file's outcome is committed (progress logging, tests). */
  onSettled?: (job: NfeBatchJob, file: NfeBatchFile, outcome: BatchOutcome) => void;
}

const CHUNK = 25;

const COUNTER: Record<BatchOutcome['status'], 'staged' | 'duplicates' | 'invalid'> = {
  STAGED: 'staged',
  DUPLICATE: 'duplicates',
  INVALID: 'invalid',
};

export class BatchRunner {
  readonly owner: string;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly onSettled?: BatchRunnerOptions['onSettled'];
  private sweeper: Worker | null = null;
  private readonly active = new Set<Promise<unknown>>();
  /** Stop before the next file (a stopping process: the lease is released, the job resumes elsewhere). */
  private stopping = false;
  /** Stop before the next file as if the process had died (tests): the lease stays until it expires. */
  private killed = false;

  constructor(options: BatchRunnerOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.owner = options.owner ?? replicaName();
    this.leaseMs = options.leaseMs ?? nfeConfig.batch.leaseMs;
    this.onSettled = options.onSettled;
  }

  /** Runs a job in the background of this process (after an upload); errors are logged. */
  runInBackground(companyId: number, jobId: number): void {
    const run = this.runJob(companyId, jobId)
      .catch((err) => logger.error('batch job failed', { jobId, err: (err as Error).message }))
      .finally(() => this.active.delete(run));
    this.active.add(run);
  }

  /**
   * The sweep on a timer (src/workers.ts): picks up jobs no live process holds (a killed server's, or
   * queued ones). Stopping the worker also stops this runner's jobs before their next file.
   */
  worker(intervalMs: number): Worker {
    if (this.sweeper && this.sweeper.state !== 'stopped') return this.sweeper;
    this.stopping = false;
    const w = new Worker({ name: 'nfe-batch-sweep', intervalMs, run: () => this.sweep(), onStop: () => this.drain() });
    w.signal.addEventListener('abort', () => (this.stopping = true));
    return (this.sweeper = w);
  }

  start(intervalMs: number): void {
    this.worker(intervalMs).start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.sweeper?.stop();
    await this.drain();
  }

  private async drain(): Promise<void> {
    await Promise.all([...this.active]);
  }

  /** Simulates a crash: nothing more is done and no lease is released. */
  kill(): void {
    this.killed = true;
    void this.sweeper?.stop();
  }

  /** Every claimable job, one after another. Returns how many it worked on. */
  async sweep(): Promise<number> {
    let worked = 0;
    for (const job of await claimableJobs(readerOf(NO_UNIT), this.now(), 20)) {
      if (this.stopping || this.killed) break;
      if (await this.runJob(job.companyId, job.id)) worked++;
    }
    return worked;
  }

  private async claim(job: NfeBatchJob): Promise<boolean> {
    const now = this.now();
    if (job.status !== 'QUEUED' && job.status !== 'RUNNING') return false;
    if (job.leaseUntil && job.leaseUntil.getTime() > now.getTime() && job.leaseOwner !== this.owner) return false;
    return inTransaction(NO_UNIT, (em) =>
      updateJob(em, job, {
        status: 'RUNNING',
        leaseOwner: this.owner,
        leaseUntil: new Date(now.getTime() + this.leaseMs),
        startedAt: job.startedAt ?? now,
      }),
    );
  }

  /** Works the job to its end if this process wins its lease; false when someone else holds it. */
  async runJob(companyId: number, jobId: number): Promise<boolean> {
    const job = await findJob(companyId, jobId, readerOf(NO_UNIT));
    if (!job || !(await this.claim(job))) return false;
    const filial = await readerOf(NO_UNIT).findOneBy(Filial, { id: job.filialId, companyId });
    const ctx: ActorContext = { companyId, actor: job.createdBy, requestId: job.requestId ?? undefined };
    try {
      for (;;) {
        const files = await pendingFiles(readerOf(NO_UNIT), companyId, job.id, CHUNK);
        if (!files.length) break;
        for (const file of files) {
          if (this.killed) return true;
          if (this.stopping) {
            await inTransaction(NO_UNIT, (em) => updateJob(em, job, { leaseOwner: null, leaseUntil: null }, this.owner));
            return true;
          }
          const outcome = filial
            ? await this.prepareAndApply(job, file, filial, ctx)
            : await this.settle(job, file, ctx, null, invalid('FILIAL_NOT_FOUND', 'The filial of this batch no longer exists'));
          if (!outcome) throw new ConflictError('BATCH_LEASE_LOST', 'Another process took this batch over');
        }
      }
      await inTransaction(NO_UNIT, async (em) => {
        if (!(await updateJob(em, job, { status: 'DONE', finishedAt: this.now(), leaseOwner: null, leaseUntil: null }, this.owner))) return;
        await recordAudit(em, ctx, {
          entity: BATCH_AUDIT_ENTITY,
          entityId: job.id,
          action: 'COMPLETED',
          changes: { status: ['RUNNING', 'DONE'] },
        });
        await publishEvent(em, ctx, {
          type: 'nfe.batch.completed',
          filialId: job.filialId,
          aggregateType: BATCH_AUDIT_ENTITY,
          aggregateId: job.id,
          data: batchEventData(job),
        });
      });
    } catch (err) {
      if (err instanceof ConflictError && err.code === 'BATCH_LEASE_LOST') return true;
      // Something outside any one file failed (the database): the lease expires and the job resumes.
      throw err;
    }
    return true;
  }

  private async prepareAndApply(job: NfeBatchJob, file: NfeBatchFile, filial: Filial, ctx: ActorContext): Promise<BatchOutcome | null> {
    const handler = handlerOfKind(file.kind);
    if (!handler || !file.contentGz)
      return this.settle(job, file, ctx, null, invalid('BATCH_DOCUMENT_UNSUPPORTED', 'No handler takes this document'));
    const xml = decompressXml(Buffer.from(file.contentGz));
    let prepared;
    try {
      prepared = await handler.prepare(xml, filial);
    } catch (err) {
      prepared = invalidFromError(err, 'BATCH_FILE_FAILED');
    }
    return this.settle(job, file, ctx, isOutcome(prepared) ? null : prepared, isOutcome(prepared) ? prepared : null);
  }

  /** One transaction: the document's writes (when it has any), the file's outcome and the job's counters. */
  private async settle(
    job: NfeBatchJob,
    file: NfeBatchFile,
    ctx: ActorContext,
    prepared: PreparedBatchDocument | null,
    fixed: BatchOutcome | null,
  ): Promise<BatchOutcome | null> {
    const attempt = (outcomeOf: (em: EntityManager) => Promise<BatchOutcome>) =>
      inTransaction(NO_UNIT, async (em) => {
        const outcome = await outcomeOf(em);
        const processed = job.processed + 1;
        const counter = COUNTER[outcome.status];
        const values: Partial<NfeBatchJob> = { processed, leaseUntil: new Date(this.now().getTime() + this.leaseMs) };
        values[counter] = job[counter] + 1;
        if (!(await updateJob(em, job, values, this.owner)))
          throw new ConflictError('BATCH_LEASE_LOST', 'Another process took this batch over');
        const settled = await settleFile(em, job.companyId, file.id, {
          status: outcome.status,
          accessKey: outcome.accessKey,
          inboundId: outcome.inboundId,
          cteId: outcome.cteId ?? null,
          problemCode: outcome.problemCode,
          message: outcome.message.slice(0, 500),
          processedOrder: processed,
          processedAt: this.now(),
        });
        if (!settled) throw new ConflictError('BATCH_LEASE_LOST', 'The file was settled by another process');
        return outcome;
      });
    const snapshot = { ...job };
    try {
      const outcome = await attempt(async (em) => (prepared ? prepared.apply(em, ctx) : fixed!));
      this.onSettled?.(job, file, outcome);
      return outcome;
    } catch (err) {
      Object.assign(job, snapshot);
      if (err instanceof ConflictError && err.code === 'BATCH_LEASE_LOST') return null;
      if (!prepared) throw err;
      // The document's own writes failed (e.g. a concurrent change of its record): the file is
      // reported with the error, nothing of it written.
      try {
        const outcome = await attempt(async () => invalidFromError(err, 'BATCH_FILE_FAILED'));
        this.onSettled?.(job, file, outcome);
        return outcome;
      } catch (again) {
        Object.assign(job, snapshot);
        if (again instanceof ConflictError && again.code === 'BATCH_LEASE_LOST') return null;
        throw again;
      }
    }
  }
}

/** This process's runner: uploads start their job on it; main.ts starts its sweep. */
export const batchRunner = new BatchRunner();
