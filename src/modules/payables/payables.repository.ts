import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { Dec, dec, sum } from '../../core/decimal';
import { SQL_NOW, supplierFilter } from '../entry-document/entry-document.repository';
import { Payable, PayableStatus } from './entities/payable.entity';

// SQLite allows 32,766 bound parameters per statement.
const ROWS_PER_INSERT = 1_500;

export const UNSETTLED: PayableStatus[] = ['OPEN', 'PARTIALLY_PAID'];

export async function insertPayables(em: EntityManager, rows: Partial<Payable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await em.createQueryBuilder().insert().into(Payable).values(rows.slice(i, i + ROWS_PER_INSERT) as never).updateEntity(false).execute();
  }
}

export function payablesOfDocument(em: EntityManager, companyId: number, entryDocumentId: number): Promise<Payable[]> {
  return em.find(Payable, { where: { companyId, entryDocumentId }, order: { installmentNumber: 'ASC', id: 'ASC' } });
}

/** Phase 1 of a document's payables list (the entry-document index of the payable table). */
export const documentPayablesQuery = (em: EntityManager, companyId: number, entryDocumentId: number): SelectQueryBuilder<Payable> =>
  em.createQueryBuilder(Payable, 'p').where('p.company_id = :companyId AND p.entry_document_id = :entryDocumentId', { companyId, entryDocumentId });

/**
 * Cancels a document's payables in one statement, only those still OPEN: a payable paid in the
 * meantime is left alone and shows up as fewer affected rows than expected.
 */
export async function cancelOpenPayables(em: EntityManager, companyId: number, entryDocumentId: number): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(Payable)
    .set({ status: 'CANCELLED', cancelledAt: () => SQL_NOW, updatedAt: () => SQL_NOW, version: () => 'version + 1' } as never)
    .where('company_id = :companyId AND entry_document_id = :entryDocumentId AND status = :open', { companyId, entryDocumentId, open: 'OPEN' })
    .execute();
  return result.affected ?? 0;
}

export interface PayableFilters {
  status?: PayableStatus;
  dueFrom?: string;
  dueTo?: string;
  supplier?: string;
  overdue?: boolean;
  entryDocumentId?: number;
}

const OVERDUE_SQL = "(p.status IN ('OPEN', 'PARTIALLY_PAID') AND p.due_date < :today)";

export function payableListQuery(em: EntityManager, companyId: number, filialId: number, f: PayableFilters, today: string): SelectQueryBuilder<Payable> {
  const qb = em.createQueryBuilder(Payable, 'p').where('p.company_id = :companyId AND p.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('p.status = :status', { status: f.status });
  if (f.dueFrom) qb.andWhere('p.due_date >= :dueFrom', { dueFrom: f.dueFrom });
  if (f.dueTo) qb.andWhere('p.due_date <= :dueTo', { dueTo: f.dueTo });
  if (f.entryDocumentId !== undefined) qb.andWhere('p.entry_document_id = :entryDocumentId', { entryDocumentId: f.entryDocumentId });
  if (f.supplier) supplierFilter(qb as never, 'p.supplier_id', companyId, f.supplier);
  if (f.overdue !== undefined) qb.andWhere(f.overdue ? OVERDUE_SQL : `NOT ${OVERDUE_SQL}`, { today });
  return qb;
}

export const loadPayablesByIds = (em: EntityManager, ids: number[]) => em.findBy(Payable, { id: In(ids) });

export interface PayableGroup {
  status: PayableStatus;
  overdue: boolean;
  count: number;
  amount: Dec;
  paidAmount: Dec;
}

/**
 * Count and sums of the filtered payables per status and overdue flag. MySQL sums DECIMALs exactly;
 * SQLite stores decimals as text and would sum them as doubles, so there the rows are added up here.
 */
export async function payableGroups(filtered: SelectQueryBuilder<Payable>, today: string): Promise<PayableGroup[]> {
  const overdueFlag = `CASE WHEN ${OVERDUE_SQL} THEN 1 ELSE 0 END`;
  if (isMysql) {
    const rows: { status: PayableStatus; overdue: string | number; n: string | number; amount: string; paid: string }[] = await filtered
      .clone()
      .select('p.status', 'status')
      .addSelect(overdueFlag, 'overdue')
      .addSelect('COUNT(*)', 'n')
      .addSelect('SUM(p.amount)', 'amount')
      .addSelect('SUM(p.paid_amount)', 'paid')
      .setParameter('today', today)
      .groupBy('p.status')
      .addGroupBy('overdue')
      .getRawMany();
    return rows.map((r) => ({ status: r.status, overdue: Number(r.overdue) === 1, count: Number(r.n), amount: dec(r.amount), paidAmount: dec(r.paid) }));
  }
  const rows: { status: PayableStatus; overdue: number; amount: string; paid: string }[] = await filtered
    .clone()
    .select('p.status', 'status')
    .addSelect(overdueFlag, 'overdue')
    .addSelect('p.amount', 'amount')
    .addSelect('p.paid_amount', 'paid')
    .setParameter('today', today)
    .getRawMany();
  const groups = new Map<string, { status: PayableStatus; overdue: boolean; amounts: string[]; paid: string[] }>();
  for (const r of rows) {
    const key = `${r.status}:${r.overdue}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { status: r.status, overdue: Number(r.overdue) === 1, amounts: [], paid: [] }));
    g.amounts.push(r.amount);
    g.paid.push(r.paid);
  }
  return [...groups.values()].map((g) => ({ status: g.status, overdue: g.overdue, count: g.amounts.length, amount: sum(g.amounts), paidAmount: sum(g.paid) }));
}
