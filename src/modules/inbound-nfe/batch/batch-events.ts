import { encodeId } from '../../../core/hashids';
import type { NfeBatchJob } from '../entities/nfe-batch-job.entity';

/** Audit entity and event payload of batch jobs (`nfe.batch.created`, `nfe.batch.completed`): hashids only. */
export const BATCH_AUDIT_ENTITY = 'nfe-batch';

export const batchEventData = (j: NfeBatchJob) => ({
  batchId: encodeId('nfe-batch', j.id),
  filialId: encodeId('filial', j.filialId),
  status: j.status,
  total: j.total,
  staged: j.staged,
  duplicates: j.duplicates,
  invalid: j.invalid,
});
