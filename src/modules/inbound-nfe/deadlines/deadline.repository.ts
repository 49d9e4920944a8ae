import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { sqlTime } from '../../../core/db/sql-time';
import {} from '../../../core/db/transaction';
import { NfeInbound } from '../entities/nfe-inbound.entity';
import { NfeManifestationDeadline } from '../entities/nfe-manifestation-deadline.entity';

/** SQL of the manifestation deadlines; every query is filtered by company and filial. */

/** Records authorized since `since` whose deadlines were never computed or were computed for an older version. */
export function staleRecords(em: EntityManager, companyId: number, filialId: number, since: Date, limit: number): Promise<NfeInbound[]> {
  return em
    .createQueryBuilder(NfeInbound, 'n')
    .leftJoin(NfeManifestationDeadline, 'd', 'd.company_id = n.company_id AND d.inbound_id = n.id')
    .where('n.company_id = :companyId AND n.filial_id = :filialId', { companyId, filialId })
    .andWhere('n.authorized_at >= :since', { since: sqlTime(since) })
    .andWhere('(d.id IS NULL OR d.inbound_version <> n.version)')
    .orderBy('n.id', 'ASC')
    .limit(limit)
    .getMany();
}

export function deadlinesOf(em: EntityManager, companyId: number, inboundIds: number[]): Promise<NfeManifestationDeadline[]> {
  return inboundIds.length ? em.findBy(NfeManifestationDeadline, { companyId, inboundId: In(inboundIds) }) : Promise.resolve([]);
}

export async function insertDeadline(em: EntityManager, row: Partial<NfeManifestationDeadline>): Promise<void> {
  await em.insert(NfeManifestationDeadline, row as never);
}

/** Replaces the computed values when they were computed for another version of the record. */
export async function updateDeadline(
  em: EntityManager,
  existing: NfeManifestationDeadline,
  values: Partial<NfeManifestationDeadline>,
): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(NfeManifestationDeadline)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', {
      id: existing.id,
      companyId: existing.companyId,
      version: existing.version,
    })
    .execute();
  return (res.affected ?? 0) > 0;
}

/** Open deadlines of a filial due on or before `until` whose tightest alert is not yet `minThreshold`. */
export function alertCandidates(
  em: EntityManager,
  companyId: number,
  filialId: number,
  until: string,
  minThreshold: number,
): Promise<NfeManifestationDeadline[]> {
  return em
    .createQueryBuilder(NfeManifestationDeadline, 'd')
    .where('d.company_id = :companyId AND d.filial_id = :filialId AND d.open = :open', { companyId, filialId, open: true })
    .andWhere('d.due_date <= :until', { until })
    .andWhere('(d.notified_threshold IS NULL OR d.notified_threshold > :minThreshold)', { minThreshold })
    .orderBy('d.due_date', 'ASC')
    .addOrderBy('d.id', 'ASC')
    .getMany();
}

/** Claims an alert threshold: true for exactly one caller per record and threshold. */
export async function claimThreshold(em: EntityManager, row: NfeManifestationDeadline, threshold: number): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(NfeManifestationDeadline)
    .set({ notifiedThreshold: threshold, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND (notified_threshold IS NULL OR notified_threshold > :threshold)', {
      id: row.id,
      companyId: row.companyId,
      threshold,
    })
    .execute();
  return (res.affected ?? 0) > 0;
}

/** Phase 1 of the list: open deadlines of a filial due between `from` (null: any) and `until`. */
export function deadlineListQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  from: string | null,
  until: string,
): SelectQueryBuilder<NfeManifestationDeadline> {
  const qb = em
    .createQueryBuilder(NfeManifestationDeadline, 'd')
    .where('d.company_id = :companyId AND d.filial_id = :filialId AND d.open = :open', { companyId, filialId, open: true })
    .andWhere('d.due_date <= :until', { until });
  if (from) qb.andWhere('d.due_date >= :from', { from });
  return qb;
}

export function loadDeadlinesByIds(em: EntityManager, ids: number[]): Promise<NfeManifestationDeadline[]> {
  return em.findBy(NfeManifestationDeadline, { id: In(ids) });
}
