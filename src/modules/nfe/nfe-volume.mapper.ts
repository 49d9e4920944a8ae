import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { NfeBatchFile } from './entities/nfe-batch-file.entity';
import type { NfeBatchJob } from './entities/nfe-batch-job.entity';

/** Response shapes of the volume routes (batch jobs and their files). */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const BASE = '/api/entry-document/nfe';

export function toBatchJobDto(j: NfeBatchJob) {
  const id = encodeId('nfe-batch', j.id);
  const filialId = encodeId('filial', j.filialId);
  return {
    id,
    filialId,
    status: j.status,
    format: j.format,
    progress: { done: j.processed, total: j.total, percent: j.total ? Math.floor((j.processed * 100) / j.total) : 100 },
    counts: { staged: j.staged, duplicates: j.duplicates, invalid: j.invalid, pending: j.total - j.processed },
    error: j.error,
    createdBy: j.createdBy,
    createdAt: iso(j.createdAt),
    startedAt: iso(j.startedAt),
    finishedAt: iso(j.finishedAt),
    links: { self: `${BASE}/batch/${id}/${filialId}`, stream: `${BASE}/batch/stream/${id}/${filialId}` },
  };
}

export const toBatchFileDto = (f: NfeBatchFile) => ({
  seq: f.seq,
  name: f.name,
  size: f.size,
  kind: f.kind,
  outcome: f.status,
  accessKey: f.accessKey,
  inboundId: encodeOptionalId('nfe-inbound', f.inboundId),
  problem: f.problemCode ? { code: f.problemCode, message: f.message } : null,
  message: f.problemCode ? null : f.message,
  processedAt: iso(f.processedAt),
});
