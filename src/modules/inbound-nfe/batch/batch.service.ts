import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { NotFoundError } from '../../../core/errors';
import { Page, PageRequest, paginate } from '../../../core/pagination';
import type { BatchFileStatus, NfeBatchFile } from '../entities/nfe-batch-file.entity';
import type { NfeBatchJob } from '../entities/nfe-batch-job.entity';
import { governingFilial } from '../nfe-inbound.service';
import { recordAudit } from '../../../core/audit/audit.service';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { BATCH_AUDIT_ENTITY, batchEventData } from './batch-events';
import { classify } from './batch-handlers';
import { batchRunner } from './batch-runner';
import { readUpload } from './batch-upload';
import { filesQuery, filesSettledAfter, findJob, insertFiles, insertJob, loadFilesByIds } from './batch.repository';

/*
 * Batch uploads (SPEC §4 at volume): the upload is read and checked at once (limits, ZIP bombs, names,
 * non-XML entries) and stored as a job with one row per file, content included, in one transaction;
 * the answer carries the job's id while the files are staged in the background (batch-runner.ts).
 * Files that can never be staged (not XML, a path trick, an unknown document) get their outcome
 * right away; the others wait as PENDING.
 */

const notFound = () => new NotFoundError('Batch', 'NFE_BATCH_NOT_FOUND');

/** XML bytes as text: the declared ISO-8859-1 / Windows-1252 as Latin-1, anything else as UTF-8. */
export function decodeXmlBytes(content: Buffer): string {
  const head = content.subarray(0, 200).toString('latin1');
  const declared = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  const text =
    declared && /^(iso-8859-1|latin1|windows-1252|cp1252)$/.test(declared) ? content.toString('latin1') : content.toString('utf8');
  return text.replace(/^\uFEFF/, '');
}

export async function createBatch(
  ctx: TenantContext,
  body: unknown,
  contentType: string | undefined,
  options: { start?: boolean } = {},
): Promise<NfeBatchJob> {
  const filial = await governingFilial(ctx);
  const upload = await readUpload(body, contentType);
  const now = new Date();
  let order = 0;
  const files: Partial<NfeBatchFile>[] = upload.entries.map((e, i) => {
    const base = { companyId: ctx.companyId, seq: i + 1, name: e.name, size: e.size };
    if (e.problem || !e.content) {
      return {
        ...base,
        kind: null,
        phase: 0,
        status: 'INVALID' as const,
        problemCode: e.problem?.code ?? 'BATCH_ENTRY_NOT_XML',
        message: e.problem?.message ?? 'Not read',
        processedOrder: ++order,
        processedAt: now,
      };
    }
    const xml = decodeXmlBytes(e.content);
    const c = classify(xml);
    if ('outcome' in c) {
      return {
        ...base,
        kind: c.kind,
        phase: 0,
        status: 'INVALID' as const,
        problemCode: c.outcome.problemCode,
        message: c.outcome.message,
        processedOrder: ++order,
        processedAt: now,
      };
    }
    return {
      ...base,
      kind: c.handler.kind,
      phase: c.handler.phase,
      status: 'PENDING' as const,
      contentGz: zlib.gzipSync(Buffer.from(xml, 'utf8')),
    };
  });
  const invalidNow = order;
  const job = await inTransaction(ctx, async (em) => {
    const id = await insertJob(em, {
      companyId: ctx.companyId,
      filialId: filial.id,
      status: invalidNow === files.length ? 'DONE' : 'QUEUED',
      format: upload.format,
      uploadSha256: crypto
        .createHash('sha256')
        .update(body as Buffer)
        .digest('hex'),
      total: files.length,
      processed: invalidNow,
      staged: 0,
      duplicates: 0,
      invalid: invalidNow,
      createdBy: ctx.actor.slice(0, 120),
      requestId: ctx.requestId?.slice(0, 64) ?? null,
      finishedAt: invalidNow === files.length ? now : null,
      version: 1,
    });
    await insertFiles(
      em,
      files.map((f) => ({ ...f, jobId: id })),
    );
    const created = (await findJob(ctx.companyId, id, em))!;
    await recordAudit(em, ctx, {
      entity: BATCH_AUDIT_ENTITY,
      entityId: id,
      action: 'CREATED',
      changes: { status: [null, created.status], total: [null, created.total] },
    });
    await publishEvent(em, ctx, {
      type: 'nfe.batch.created',
      filialId: filial.id,
      aggregateType: BATCH_AUDIT_ENTITY,
      aggregateId: id,
      data: batchEventData(created),
    });
    if (created.status === 'DONE')
      await publishEvent(em, ctx, {
        type: 'nfe.batch.completed',
        filialId: filial.id,
        aggregateType: BATCH_AUDIT_ENTITY,
        aggregateId: id,
        data: batchEventData(created),
      });
    return created;
  });
  if (job.status === 'QUEUED' && options.start !== false) batchRunner.runInBackground(job.companyId, job.id);
  return job;
}

/** A job of the filial (another filial's or company's → 404). */
export async function batchJob(ctx: TenantContext, id: number, filialId: number): Promise<NfeBatchJob> {
  const job = await findJob(ctx.companyId, id, readerOf(ctx));
  if (!job || job.filialId !== filialId) throw notFound();
  return job;
}

export interface BatchFilesQuery extends PageRequest {
  outcome?: BatchFileStatus;
}

/** GET /entry-document/nfe/batch/:id/:filialId: the job and a page of its files. */
export async function batchWithFiles(
  ctx: TenantContext,
  id: number,
  filialId: number,
  query: BatchFilesQuery,
): Promise<{ job: NfeBatchJob; files: Page<NfeBatchFile> }> {
  const job = await batchJob(ctx, id, filialId);
  return { job, files: await batchFiles(ctx, job, query) };
}

function batchFiles(ctx: TenantContext, job: NfeBatchJob, query: BatchFilesQuery): Promise<Page<NfeBatchFile>> {
  const em = readerOf(ctx);
  return paginate(
    filesQuery(em, ctx.companyId, job.id, query.outcome),
    // The last key is the row id: paginate loads the page by it (seq alone loaded other jobs' files).
    [
      { column: 'f.seq', direction: 'ASC' },
      { column: 'f.id', direction: 'ASC' },
    ],
    query,
    (ids) => loadFilesByIds(em, ctx.companyId, ids),
    (f) => f.id,
  );
}

export interface BatchProgress {
  job: NfeBatchJob;
  /** Files that reached an outcome since the last report, in that order. */
  files: NfeBatchFile[];
}

/**
 * Progress of a job as it happens (for the event stream), from the database so it works whichever
 * process runs the job: `onProgress` gets the job and the newly settled files whenever something
 * changed, until the job is DONE or FAILED, `isClosed()` turns true, or `maxMs` passes.
 */
export async function watchBatch(
  ctx: TenantContext,
  id: number,
  filialId: number,
  onProgress: (p: BatchProgress) => void,
  opts: { isClosed: () => boolean; pollMs?: number; maxMs?: number },
): Promise<NfeBatchJob> {
  let job = await batchJob(ctx, id, filialId);
  let cursor = 0;
  let lastVersion = -1;
  const until = Date.now() + (opts.maxMs ?? 30 * 60_000);
  for (;;) {
    const files: NfeBatchFile[] = [];
    for (;;) {
      const more = await filesSettledAfter(readerOf(ctx), ctx.companyId, job.id, cursor, 500);
      files.push(...more);
      if (more.length) cursor = more[more.length - 1].processedOrder!;
      if (more.length < 500) break;
    }
    if (files.length || job.version !== lastVersion) onProgress({ job, files });
    lastVersion = job.version;
    if (job.status === 'DONE' || job.status === 'FAILED' || opts.isClosed() || Date.now() > until) return job;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
    job = (await findJob(ctx.companyId, id, readerOf(ctx))) ?? job;
  }
}
