import { EntityManager, In } from 'typeorm';
import { isUniqueViolation } from '../../core/db/db-errors';
import { sqlTime } from '../../core/db/sql-time';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { DfeSchedule } from './entities/dfe-schedule.entity';
import { SefazCertificate } from '../sefaz';

/*
 * SQL of the DF-e schedule rows. Every change is a conditional UPDATE on the row's version (and on
 * the lease owner where a replica acts under its lease), so replicas never overwrite each other.
 */

export function schedulesOf(companyId: number, filialIds: number[] | null, em: EntityManager = readerOf(NO_UNIT)): Promise<DfeSchedule[]> {
  const where = filialIds === null ? { companyId } : { companyId, filialId: In(filialIds.length ? filialIds : [0]) };
  return em.find(DfeSchedule, { where, order: { filialId: 'ASC' } });
}

export function findSchedule(companyId: number, filialId: number, em: EntityManager = readerOf(NO_UNIT)): Promise<DfeSchedule | null> {
  return em.findOneBy(DfeSchedule, { companyId, filialId });
}

/** Rows for filiais that have none yet, due at once; a row created at the same moment by another replica is kept. */
export async function ensureSchedules(filiais: { companyId: number; filialId: number }[], now: Date): Promise<void> {
  if (!filiais.length) return;
  const existing = new Set(
    (
      await readerOf(NO_UNIT).find(DfeSchedule, {
        select: { companyId: true, filialId: true },
        where: { filialId: In(filiais.map((f) => f.filialId)) },
      })
    ).map((s) => `${s.companyId}:${s.filialId}`),
  );
  for (const f of filiais) {
    if (existing.has(`${f.companyId}:${f.filialId}`)) continue;
    try {
      await inTransaction(NO_UNIT, (em) => em.insert(DfeSchedule, { companyId: f.companyId, filialId: f.filialId, nextRunAt: now }));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}

/** Rows due at `now` whose lease is free, soonest first. */
export function dueSchedules(now: Date, limit: number): Promise<DfeSchedule[]> {
  return readerOf(NO_UNIT)
    .createQueryBuilder(DfeSchedule, 's')
    .where('s.next_run_at <= :now', { now: sqlTime(now) })
    .andWhere('(s.lease_until IS NULL OR s.lease_until <= :now)', { now: sqlTime(now) })
    .orderBy('s.next_run_at', 'ASC')
    .addOrderBy('s.id', 'ASC')
    .take(limit)
    .getMany();
}

/** UPDATE … WHERE id AND version [AND lease_owner]; false when another replica changed the row first. */
export async function updateSchedule(schedule: DfeSchedule, values: Partial<DfeSchedule>, owner?: string): Promise<boolean> {
  const res = await inTransaction(NO_UNIT, (em) => {
    const qb = em
      .createQueryBuilder()
      .update(DfeSchedule)
      .set({ ...values, version: () => 'version + 1' } as never)
      .where('id = :id AND company_id = :companyId AND version = :version', {
        id: schedule.id,
        companyId: schedule.companyId,
        version: schedule.version,
      });
    if (owner !== undefined) qb.andWhere('lease_owner = :owner', { owner });
    return qb.execute();
  });
  if (!res.affected) return false;
  Object.assign(schedule, values, { version: schedule.version + 1 });
  return true;
}

/** Frees every lease a stopping replica holds (the rows keep their next run). */
export async function releaseLeasesOf(owner: string): Promise<number> {
  const res = await inTransaction(NO_UNIT, (em) =>
    em
      .createQueryBuilder()
      .update(DfeSchedule)
      .set({ leaseOwner: null, leaseUntil: null, version: () => 'version + 1' } as never)
      .where('lease_owner = :owner', { owner })
      .execute(),
  );
  return res.affected ?? 0;
}

export async function filialsWithCertificate(companyId: number, filialIds: number[]): Promise<Set<number>> {
  if (!filialIds.length) return new Set();
  const rows = await readerOf(NO_UNIT).find(SefazCertificate, {
    select: { filialId: true },
    where: { companyId, filialId: In(filialIds) },
  });
  return new Set(rows.map((r) => r.filialId));
}

export type ScheduleSummary = Pick<
  DfeSchedule,
  'companyId' | 'filialId' | 'lastOutcome' | 'consecutiveErrors' | 'nextRunAt' | 'leaseUntil'
>;

/** The state columns of every schedule row (one per filial that ever had the sync on). */
export function scheduleSummaries(em: EntityManager = readerOf(NO_UNIT)): Promise<ScheduleSummary[]> {
  return em.find(DfeSchedule, {
    select: { companyId: true, filialId: true, lastOutcome: true, consecutiveErrors: true, nextRunAt: true, leaseUntil: true },
  });
}
