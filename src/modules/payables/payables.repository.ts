import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { Dec } from '../../core/decimal';
import { addCalendarDays } from '../../core/business-date';
import { groupedSums } from '../../core/db/group-sums';
import { sqlNow } from '../../core/db/sql-time';
import { supplierFilter } from '../catalog';
import { Payable, PayableStatus } from './entities/payable.entity';
import { updateIfCurrent } from '../../core/versioned-update';
import { DeductionSource, PayableDeduction } from './entities/payable-deduction.entity';
import { SupplierCredit } from './entities/supplier-credit.entity';
import { insertChunked, TenantRow } from '../../core/db/sql';

export const UNSETTLED: PayableStatus[] = ['OPEN', 'PARTIALLY_PAID'];

export async function insertPayables(em: EntityManager, rows: TenantRow<Payable>[]): Promise<void> {
  await insertChunked(em, Payable, rows);
}

export function payablesOfDocument(em: EntityManager, companyId: number, entryDocumentId: number): Promise<Payable[]> {
  return em.find(Payable, { where: { companyId, entryDocumentId }, order: { installmentNumber: 'ASC', id: 'ASC' } });
}

export function payablesOfCte(em: EntityManager, companyId: number, cteId: number): Promise<Payable[]> {
  return em.find(Payable, { where: { companyId, cteId }, order: { installmentNumber: 'ASC', id: 'ASC' } });
}

/** As cancelOpenPayables, for the payables of a CT-e. */
export async function cancelOpenCtePayables(em: EntityManager, companyId: number, cteId: number): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(Payable)
    .set({ status: 'CANCELLED', cancelledAt: () => sqlNow(), updatedAt: () => sqlNow(), version: () => 'version + 1' } as never)
    .where('company_id = :companyId AND cte_id = :cteId AND status = :open', { companyId, cteId, open: 'OPEN' })
    .execute();
  return result.affected ?? 0;
}

/** Phase 1 of a document's payables list (the entry-document index of the payable table). */
export const documentPayablesQuery = (em: EntityManager, companyId: number, entryDocumentId: number): SelectQueryBuilder<Payable> =>
  em
    .createQueryBuilder(Payable, 'p')
    .where('p.company_id = :companyId AND p.entry_document_id = :entryDocumentId', { companyId, entryDocumentId });

/**
 * Cancels a document's payables in one statement, only those still OPEN: a payable paid in the
 * meantime is left alone and shows up as fewer affected rows than expected.
 */
export async function cancelOpenPayables(em: EntityManager, companyId: number, entryDocumentId: number): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(Payable)
    .set({ status: 'CANCELLED', cancelledAt: () => sqlNow(), updatedAt: () => sqlNow(), version: () => 'version + 1' } as never)
    .where('company_id = :companyId AND entry_document_id = :entryDocumentId AND status = :open', {
      companyId,
      entryDocumentId,
      open: 'OPEN',
    })
    .execute();
  return result.affected ?? 0;
}

export function findPayable(em: EntityManager, companyId: number, id: number, lock = false): Promise<Payable | null> {
  const qb = em.createQueryBuilder(Payable, 'p').where('p.id = :id AND p.company_id = :companyId', { id, companyId });
  // Payments and reversals of one payable queue on its row (SQLite serializes transactions anyway).
  if (lock && isMysql) qb.setLock('pessimistic_write');
  return qb.getOne();
}

/** Conditional UPDATE of the paid amount and status: only from the status and version read. */
export async function updatePayableIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: PayableStatus; version: number },
  values: { paidAmount: Dec; status: PayableStatus },
): Promise<boolean> {
  return updateIfCurrent(em, Payable, { companyId, id }, expected, values, { touch: true });
}

export interface PayableFilters {
  status?: PayableStatus;
  dueFrom?: string;
  dueTo?: string;
  supplier?: string;
  overdue?: boolean;
  entryDocumentId?: number;
  source?: Payable['sourceType'];
}

const OVERDUE_SQL = "(p.status IN ('OPEN', 'PARTIALLY_PAID') AND p.due_date < :today)";

export function payableListQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: PayableFilters,
  today: string,
): SelectQueryBuilder<Payable> {
  const qb = em.createQueryBuilder(Payable, 'p').where('p.company_id = :companyId AND p.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('p.status = :status', { status: f.status });
  if (f.dueFrom) qb.andWhere('p.due_date >= :dueFrom', { dueFrom: f.dueFrom });
  if (f.dueTo) qb.andWhere('p.due_date <= :dueTo', { dueTo: f.dueTo });
  if (f.entryDocumentId !== undefined) qb.andWhere('p.entry_document_id = :entryDocumentId', { entryDocumentId: f.entryDocumentId });
  if (f.source) qb.andWhere('p.source_type = :source', { source: f.source });
  if (f.supplier) supplierFilter(qb as never, 'p.supplier_id', companyId, f.supplier);
  if (f.overdue !== undefined) qb.andWhere(f.overdue ? OVERDUE_SQL : `NOT ${OVERDUE_SQL}`, { today });
  return qb;
}

export const loadPayablesByIds = (em: EntityManager, ids: number[]) => em.findBy(Payable, { id: In(ids) });

export const AGING_BUCKETS = ['DUE_0_7', 'DUE_8_30', 'DUE_31_PLUS', 'OVERDUE_1_30', 'OVERDUE_31_60', 'OVERDUE_61_PLUS'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export interface PayableGroup {
  status: PayableStatus;
  overdue: boolean;
  /** Unsettled payables only: where the due date falls from today (business date). */
  bucket: AgingBucket | null;
  count: number;
  amount: Dec;
  paidAmount: Dec;
}

/** Due dates compared as dates (MySQL DATE, SQLite ISO text): days from today without date arithmetic in SQL. */
const AGING_SQL = `CASE WHEN p.status NOT IN ('OPEN', 'PARTIALLY_PAID') THEN NULL
  WHEN p.due_date < :ago60 THEN 'OVERDUE_61_PLUS' WHEN p.due_date < :ago30 THEN 'OVERDUE_31_60' WHEN p.due_date < :today THEN 'OVERDUE_1_30'
  WHEN p.due_date <= :in7 THEN 'DUE_0_7' WHEN p.due_date <= :in30 THEN 'DUE_8_30' ELSE 'DUE_31_PLUS' END`;

const agingParams = (today: string) => ({
  today,
  ago60: addCalendarDays(today, -60),
  ago30: addCalendarDays(today, -30),
  in7: addCalendarDays(today, 7),
  in30: addCalendarDays(today, 30),
});

/** Count and sums of the filtered payables per status, overdue flag and aging bucket (exact on both engines: groupedSums). */
export async function payableGroups(filtered: SelectQueryBuilder<Payable>, today: string): Promise<PayableGroup[]> {
  const rows = await groupedSums(
    filtered as never,
    { status: 'p.status', overdue: `CASE WHEN ${OVERDUE_SQL} THEN 1 ELSE 0 END`, bucket: AGING_SQL },
    { amount: 'p.amount', paid: 'p.paid_amount' },
    { ...agingParams(today), today },
  );
  return rows.map((r) => ({
    status: r.status as PayableStatus,
    overdue: Number(r.overdue) === 1,
    bucket: r.bucket as AgingBucket | null,
    count: r.count,
    amount: r.amount,
    paidAmount: r.paid,
  }));
}

/* ---- deductions (supplier returns) and supplier credits ---- */

/** The entry document's payables still owed in part, locked in ascending id order (MySQL). */
export function lockUnsettledPayablesOfDocument(em: EntityManager, companyId: number, entryDocumentId: number): Promise<Payable[]> {
  const qb = em
    .createQueryBuilder(Payable, 'p')
    .where('p.company_id = :companyId AND p.entry_document_id = :entryDocumentId AND p.status IN (:...unsettled)', {
      companyId,
      entryDocumentId,
      unsettled: UNSETTLED,
    })
    .orderBy('p.id', 'ASC');
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** Payables by id, locked in ascending id order (MySQL). */
export function lockPayables(em: EntityManager, companyId: number, ids: number[]): Promise<Payable[]> {
  if (!ids.length) return Promise.resolve([]);
  const qb = em
    .createQueryBuilder(Payable, 'p')
    .where('p.company_id = :companyId AND p.id IN (:...ids)', { companyId, ids })
    .orderBy('p.id', 'ASC');
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** Conditional UPDATE of what is owed and the status: only from the status and version read. */
export async function updatePayableAmountIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: PayableStatus; version: number },
  values: { amount: Dec; status: PayableStatus },
): Promise<boolean> {
  const cancelledAt = values.status === 'CANCELLED' ? () => sqlNow() : () => 'NULL';
  return updateIfCurrent(em, Payable, { companyId, id }, expected, { ...values, cancelledAt }, { touch: true });
}

export async function insertDeductions(em: EntityManager, rows: TenantRow<PayableDeduction>[]): Promise<void> {
  await insertChunked(em, PayableDeduction, rows);
}

export const deductionsOf = (em: EntityManager, companyId: number, sourceType: DeductionSource, sourceId: number) =>
  em.find(PayableDeduction, { where: { companyId, sourceType, sourceId }, order: { id: 'ASC' } });

export const activeDeductionsOf = (em: EntityManager, companyId: number, sourceType: DeductionSource, sourceId: number) =>
  em.find(PayableDeduction, { where: { companyId, sourceType, sourceId, status: 'ACTIVE' }, order: { payableId: 'ASC', id: 'ASC' } });

export async function markDeductionsReversed(em: EntityManager, companyId: number, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await em
    .createQueryBuilder()
    .update(PayableDeduction)
    .set({ status: 'REVERSED', reversedAt: () => sqlNow() } as never)
    .where('company_id = :companyId AND id IN (:...ids) AND status = :active', { companyId, ids, active: 'ACTIVE' })
    .execute();
}

export async function insertSupplierCredit(em: EntityManager, row: TenantRow<SupplierCredit>): Promise<number> {
  const result = await em.insert(SupplierCredit, row as never);
  return Number(result.identifiers[0].id);
}

export const supplierCreditsOf = (em: EntityManager, companyId: number, sourceType: DeductionSource, sourceId: number) =>
  em.find(SupplierCredit, { where: { companyId, sourceType, sourceId }, order: { id: 'ASC' } });

/** Cancels a source's OPEN supplier credits; how many. */
export async function cancelSupplierCreditsOf(
  em: EntityManager,
  companyId: number,
  sourceType: DeductionSource,
  sourceId: number,
): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(SupplierCredit)
    .set({ status: 'CANCELLED', cancelledAt: () => sqlNow() } as never)
    .where('company_id = :companyId AND source_type = :sourceType AND source_id = :sourceId AND status = :open', {
      companyId,
      sourceType,
      sourceId,
      open: 'OPEN',
    })
    .execute();
  return result.affected ?? 0;
}
