import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { NfeBatchFile } from './entities/nfe-batch-file.entity';
import type { NfeBatchJob } from './entities/nfe-batch-job.entity';
import type { NfeInbound } from './entities/nfe-inbound.entity';
import type { NfeManifestationDeadline } from './entities/nfe-manifestation-deadline.entity';
import { toInboundDto } from './nfe.mapper';

/** Response shapes of the volume routes (batch jobs and their files, manifestation deadlines). */

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
  cteId: encodeOptionalId('cte', f.cteId),
  problem: f.problemCode ? { code: f.problemCode, message: f.message } : null,
  message: f.problemCode ? null : f.message,
  processedAt: iso(f.processedAt),
});

const DAY = 86_400_000;
/** Calendar days from `today` to `date` (YYYY-MM-DD). */
const daysFrom = (today: string, date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY);

export function toDeadlineDto(d: NfeManifestationDeadline | null, today: string) {
  if (!d) return null;
  return {
    rule: d.rule,
    provisional: d.provisional,
    authorizedAt: iso(d.authorizedAt),
    confirmacao: d.confirmacaoUntil,
    desconhecimento: d.desconhecimentoUntil,
    naoRealizada: d.naoRealizadaUntil,
    dueDate: d.dueDate,
    daysLeft: daysFrom(today, d.dueDate),
    open: d.open,
    lastAlertThreshold: d.notifiedThreshold,
  };
}

export const toDeadlineEntryDto = (e: { deadline: NfeManifestationDeadline; inbound: NfeInbound }, today: string) => ({
  inbound: toInboundDto(e.inbound),
  deadlines: toDeadlineDto(e.deadline, today),
});
