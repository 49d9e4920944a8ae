import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { sqlTime } from '../../../core/db/sql-time';
import {} from '../../../core/db/transaction';
import { BatchFileStatus, NfeBatchFile } from '../entities/nfe-batch-file.entity';
import { NfeBatchJob } from '../entities/nfe-batch-job.entity';

/** SQL of batch jobs and their files; every query is filtered by company. */

const INSERT_CHUNK = 100;

export async function insertJob(em: EntityManager, row: Partial<NfeBatchJob>): Promise<number> {
  const res = await em.insert(NfeBatchJob, row as never);
  return Number(res.identifiers[0].id);
}

/** The files in multi-row INSERTs (a 2,000-file batch is 20 statements). */
export async function insertFiles(em: EntityManager, rows: Partial<NfeBatchFile>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await em.insert(NfeBatchFile, rows.slice(i, i + INSERT_CHUNK) as never);
}

export function findJob(companyId: number, id: number, em: EntityManager): Promise<NfeBatchJob | null> {
  return em.findOneBy(NfeBatchJob, { id, companyId });
}

/** Jobs to (re)start at `now`: queued, or running under a lease that has expired. */
export function claimableJobs(em: EntityManager, now: Date, limit: number): Promise<NfeBatchJob[]> {
  return em
    .createQueryBuilder(NfeBatchJob, 'j')
    .where("j.status IN ('QUEUED', 'RUNNING')")
    .andWhere('(j.lease_until IS NULL OR j.lease_until <= :now)', { now: sqlTime(now) })
    .orderBy('j.id', 'ASC')
    .take(limit)
    .getMany();
}

/** UPDATE … WHERE id AND company AND version [AND lease_owner]. */
export async function updateJob(em: EntityManager, job: NfeBatchJob, values: Partial<NfeBatchJob>, owner?: string): Promise<boolean> {
  const qb = em
    .createQueryBuilder()
    .update(NfeBatchJob)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', { id: job.id, companyId: job.companyId, version: job.version });
  if (owner !== undefined) qb.andWhere('lease_owner = :owner', { owner });
  const res = await qb.execute();
  if (!res.affected) return false;
  Object.assign(job, values, { version: job.version + 1 });
  return true;
}

/** The next pending files of a job with their content: NF-e before events, then upload order. */
export function pendingFiles(em: EntityManager, companyId: number, jobId: number, limit: number): Promise<NfeBatchFile[]> {
  return em
    .createQueryBuilder(NfeBatchFile, 'f')
    .addSelect('f.contentGz')
    .where("f.company_id = :companyId AND f.job_id = :jobId AND f.status = 'PENDING'", { companyId, jobId })
    .orderBy('f.phase', 'ASC')
    .addOrderBy('f.seq', 'ASC')
    .take(limit)
    .getMany();
}

/** A file's outcome, only if it still has none (a resumed job never redoes a file). */
export async function settleFile(em: EntityManager, companyId: number, fileId: number, values: Partial<NfeBatchFile>): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(NfeBatchFile)
    .set({ ...values, contentGz: null } as never)
    .where("id = :fileId AND company_id = :companyId AND status = 'PENDING'", { fileId, companyId })
    .execute();
  return (res.affected ?? 0) > 0;
}

export function filesQuery(
  em: EntityManager,
  companyId: number,
  jobId: number,
  status?: BatchFileStatus,
): SelectQueryBuilder<NfeBatchFile> {
  const qb = em.createQueryBuilder(NfeBatchFile, 'f').where('f.company_id = :companyId AND f.job_id = :jobId', { companyId, jobId });
  if (status) qb.andWhere('f.status = :status', { status });
  return qb;
}

export function loadFilesByIds(em: EntityManager, companyId: number, ids: number[]): Promise<NfeBatchFile[]> {
  return em.findBy(NfeBatchFile, { companyId, id: In(ids) });
}

/** Files that reached an outcome after `afterOrder`, in that order (the progress stream). */
export function filesSettledAfter(
  em: EntityManager,
  companyId: number,
  jobId: number,
  afterOrder: number,
  limit: number,
): Promise<NfeBatchFile[]> {
  return em
    .createQueryBuilder(NfeBatchFile, 'f')
    .where('f.company_id = :companyId AND f.job_id = :jobId AND f.processed_order > :afterOrder', { companyId, jobId, afterOrder })
    .orderBy('f.processed_order', 'ASC')
    .take(limit)
    .getMany();
}
