import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { addCalendarDays } from '../../core/business-date';
import { isMysql } from '../../core/db/engine';
import { groupedSumsStatement, SqlExpr } from '../../core/db/group-sums';
import { deferInsertRows, TenantRow } from '../../core/db/sql';
import { sqlNow } from '../../core/db/sql-time';
import { deferWrite } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { SortKey, SqlList, sqlListOf } from '../../core/pagination';
import { updateIfCurrent } from '../../core/versioned-update';
import { settlementsOf } from '../open-items';
import { CustomerCredit } from './entities/customer-credit.entity';
import { ReceivableReceipt } from './entities/receivable-receipt.entity';
import { DebtorType, Receivable, ReceivableOrigin, ReceivableStatus } from './entities/receivable.entity';

/* SQL of receivables (SPEC §13). Decimals are read and computed with Dec, never in SQL. */

/** A billing's receivables, written by deferred statements that go out with the transaction's next batch. */
export async function deferInsertReceivables(em: EntityManager, rows: TenantRow<Receivable>[]): Promise<void> {
  await deferInsertRows(em, Receivable, rows);
}

/**
 * The receipts of a billing's receivables born RECEIVED (cash and Pix at the counter), one per
 * receivable, taken from the rows just inserted in this transaction (their ids are not known here:
 * the insert was deferred), so no round trip is added.
 */
export async function deferBirthReceipts(
  em: EntityManager,
  companyId: number,
  fulfillmentId: number,
  actor: string,
  note: string,
): Promise<void> {
  await deferWrite(em, {
    label: 'insert into receivable_receipt',
    sql:
      'INSERT INTO receivable_receipt (company_id, filial_id, receivable_id, status, receipt_date, payment_method_id, payment_method_code, amount, interest, fine, discount, total, note, created_by, version) ' +
      "SELECT r.company_id, r.filial_id, r.id, 'ACTIVE', r.issue_date, r.payment_method_id, r.payment_method_code, r.amount, '0.00', '0.00', '0.00', r.amount, ?, ?, 1 " +
      "FROM receivable r WHERE r.company_id = ? AND r.fulfillment_id = ? AND r.status = 'RECEIVED'",
    params: [note, actor, companyId, fulfillmentId],
  });
}

/**
 * One row per receivable of the billing in `table` (audit_log, outbox_event): each row's own values
 * picked by installment number, the receivable's id taken from the row just inserted.
 */
export async function deferRowsPerReceivable(
  em: EntityManager,
  table: 'audit_log' | 'outbox_event',
  columns: string[],
  /** Per column: an SQL expression of `r`, a `{ value }` parameter, or a function giving each installment's value. */
  expressions: (string | { value: unknown } | ((installment: number) => unknown))[],
  companyId: number,
  fulfillmentId: number,
  installmentNumbers: number[],
): Promise<void> {
  const params: unknown[] = [];
  const selects = expressions.map((e) => {
    if (typeof e === 'string') return e;
    if (typeof e === 'object') {
      params.push(e.value);
      return '?';
    }
    const cases = installmentNumbers.map((n) => {
      params.push(n, e(n));
      return 'WHEN ? THEN ?';
    });
    return `CASE r.installment_number ${cases.join(' ')} END`;
  });
  params.push(companyId, fulfillmentId);
  await deferWrite(em, {
    label: `insert into ${table}`,
    sql: `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${selects.join(', ')} FROM receivable r WHERE r.company_id = ? AND r.fulfillment_id = ? ORDER BY r.installment_number`,
    params,
  });
}

export function findReceivable(em: EntityManager, companyId: number, id: number, lock = false): Promise<Receivable | null> {
  const qb = em.createQueryBuilder(Receivable, 'r').where('r.id = :id AND r.company_id = :companyId', { id, companyId });
  // Receipts, reversals and credits of one receivable queue on its row (SQLite serializes transactions anyway).
  if (lock && isMysql) qb.setLock('pessimistic_write');
  return qb.getOne();
}

/** The receivables of a fulfilment by installment (locked on MySQL when asked). */
export function receivablesOfFulfillment(em: EntityManager, companyId: number, fulfillmentId: number, lock = false): Promise<Receivable[]> {
  const qb = em
    .createQueryBuilder(Receivable, 'r')
    .where('r.company_id = :companyId AND r.fulfillment_id = :fulfillmentId', { companyId, fulfillmentId })
    .orderBy('r.installment_number', 'ASC')
    .addOrderBy('r.id', 'ASC');
  if (lock && isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** The customer's unsettled receivables of these orders, locked in ascending id order on MySQL (a return credits them). */
export function openCustomerReceivablesOfOrders(em: EntityManager, companyId: number, salesOrderIds: number[]): Promise<Receivable[]> {
  const qb = em
    .createQueryBuilder(Receivable, 'r')
    .where('r.company_id = :companyId AND r.sales_order_id IN (:...salesOrderIds)', { companyId, salesOrderIds })
    .andWhere("r.debtor_type = 'CUSTOMER' AND r.status IN ('OPEN', 'PARTIALLY_RECEIVED')")
    .orderBy('r.id', 'ASC');
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** Conditional UPDATE of what is settled and the status: only from the status and version read. */
export async function updateReceivableIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: ReceivableStatus; version: number },
  values: Partial<
    Pick<Receivable, 'receivedAmount' | 'creditedAmount' | 'status' | 'cancelReason' | 'originType' | 'fiscalDocumentId' | 'accessKey'>
  > & { cancelled?: boolean },
): Promise<boolean> {
  const { cancelled, ...set } = values;
  const stamped = { ...set, ...(cancelled ? { cancelledAt: () => sqlNow() } : {}) };
  return updateIfCurrent(em, Receivable, { companyId, id }, expected, stamped, { touch: true });
}

/** One receivable inserted now (not deferred): the NF-e's re-made installments need their ids for audit and events. */
export async function insertReceivable(em: EntityManager, row: TenantRow<Receivable>): Promise<number> {
  const result = await em.insert(Receivable, row as never);
  return Number(result.identifiers[0].id);
}

/** Conditional UPDATE of an unsettled receivable's installment (the NF-e's re-make): only from the status and version read. */
export async function reshapeReceivableIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: ReceivableStatus; version: number },
  values: Pick<Receivable, 'installmentNumber' | 'installmentCount' | 'issueDate' | 'dueDate' | 'grossAmount' | 'amount'>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(Receivable)
    .set({ ...values, updatedAt: () => sqlNow(), version: () => 'version + 1' } as never)
    .where(
      'id = :id AND company_id = :companyId AND status = :status AND version = :version AND received_amount = :zero AND credited_amount = :zero',
      { id, companyId, ...expected, zero: '0.00' },
    )
    .execute();
  return (result.affected ?? 0) > 0;
}

/** The receipts of some receivables, in the order they were made (the open-items kernel's SQL on receivable_receipt). */
export const receiptsOf = (em: EntityManager, companyId: number, receivableIds: number[]): Promise<ReceivableReceipt[]> =>
  settlementsOf(em, ReceivableReceipt, 'receivableId', companyId, receivableIds);

export async function insertCredits(em: EntityManager, rows: TenantRow<CustomerCredit>[]): Promise<void> {
  if (rows.length) await em.insert(CustomerCredit, rows as never);
}

export const creditsOfCustomer = (em: EntityManager, companyId: number, filialId: number, customerId: number): Promise<CustomerCredit[]> =>
  em.find(CustomerCredit, { where: { companyId, filialId, customerId }, order: { id: 'ASC' } });

export const creditsOfReturn = (em: EntityManager, companyId: number, returnId: number): Promise<CustomerCredit[]> =>
  em.find(CustomerCredit, { where: { companyId, returnId }, order: { id: 'ASC' } });

export interface ReceivableFilters {
  status?: ReceivableStatus;
  dueFrom?: string;
  dueTo?: string;
  customerId?: number;
  debtorType?: DebtorType;
  origin?: ReceivableOrigin;
  salesOrderId?: number;
  overdue?: boolean;
  /** A card payment's NSU (an acquirer statement's line is matched by it). */
  nsu?: string;
}

/** Overdue: unsettled and due before `today` (a named or a positional parameter). */
const overdueSql = (today: ':today' | '?') => `(r.status IN ('OPEN', 'PARTIALLY_RECEIVED') AND r.due_date < ${today})`;
const OVERDUE_SQL = overdueSql(':today');

export function receivableListQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: ReceivableFilters,
  today: string,
): SelectQueryBuilder<Receivable> {
  const qb = em.createQueryBuilder(Receivable, 'r').where('r.company_id = :companyId AND r.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('r.status = :status', { status: f.status });
  if (f.dueFrom) qb.andWhere('r.due_date >= :dueFrom', { dueFrom: f.dueFrom });
  if (f.dueTo) qb.andWhere('r.due_date <= :dueTo', { dueTo: f.dueTo });
  if (f.customerId !== undefined) qb.andWhere('r.customer_id = :customerId', { customerId: f.customerId });
  if (f.debtorType) qb.andWhere('r.debtor_type = :debtorType', { debtorType: f.debtorType });
  if (f.origin) qb.andWhere('r.origin_type = :origin', { origin: f.origin });
  if (f.salesOrderId !== undefined) qb.andWhere('r.sales_order_id = :salesOrderId', { salesOrderId: f.salesOrderId });
  if (f.nsu !== undefined) qb.andWhere('r.nsu = :nsu', { nsu: f.nsu });
  if (f.overdue !== undefined) qb.andWhere(f.overdue ? OVERDUE_SQL : `NOT ${OVERDUE_SQL}`, { today });
  return qb;
}

export const loadReceivablesByIds = (em: EntityManager, ids: number[]) =>
  ids.length ? em.findBy(Receivable, { id: In(ids) }) : Promise.resolve([]);

/** Aging of what is still open, by days past the due date (business date): not yet due, then overdue ranges. */
export const AGING_BUCKETS = ['CURRENT', 'OVERDUE_1_30', 'OVERDUE_31_60', 'OVERDUE_61_90', 'OVERDUE_91_PLUS'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** Due dates compared as dates (MySQL DATE, SQLite ISO text): days past due without date arithmetic in SQL. */
const agingSql = (today: string): SqlExpr => ({
  sql: `CASE WHEN r.status NOT IN ('OPEN', 'PARTIALLY_RECEIVED') THEN NULL
  WHEN r.due_date >= ? THEN 'CURRENT' WHEN r.due_date >= ? THEN 'OVERDUE_1_30' WHEN r.due_date >= ? THEN 'OVERDUE_31_60'
  WHEN r.due_date >= ? THEN 'OVERDUE_61_90' ELSE 'OVERDUE_91_PLUS' END`,
  params: [today, addCalendarDays(today, -30), addCalendarDays(today, -60), addCalendarDays(today, -90)],
});

/**
 * The filtered list as plain SQL for its page: one list, or, for `overdue=true` without a status,
 * one branch per unsettled status (`status = ? AND due_date < today`, each a range of the status
 * index already in due order) that the page and the summary merge (paginateUnion): the two statuses
 * of one range list cannot come off that index in due order, and sorting every overdue row for the
 * first 20 is what the single query did. `single` is the list as one query (the exact summary's).
 */
export function receivableListBranches(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: ReceivableFilters,
  today: string,
): { single: SelectQueryBuilder<Receivable>; branches: SqlList[] } {
  const single = receivableListQuery(em, companyId, filialId, f, today);
  if (f.overdue !== true || f.status) return { single, branches: [sqlListOf(single)] };
  const branches = (['OPEN', 'PARTIALLY_RECEIVED'] as const).map((status) =>
    sqlListOf(
      receivableListQuery(em, companyId, filialId, { ...f, overdue: undefined, status }, today).andWhere('r.due_date < :today', { today }),
    ),
  );
  return { single, branches };
}

const SUMMARY_COLUMNS = ['status', 'due_date', 'amount', 'received_amount', 'credited_amount'];

/** The lists' first `cap` rows in the list's order (`first`), or every row, as a derived table `r` of the columns the summary reads. */
function summarySource(lists: SqlList[], sort: SortKey[], cap: number | null): SqlExpr {
  const columns = SUMMARY_COLUMNS.map((c) => `r.${c} AS ${c}`).join(', ');
  const orderBy = (keys: string[]) => keys.map((c, i) => `${c} ${sort[i].direction}`).join(', ');
  const head = (l: SqlList, withId: boolean) =>
    `SELECT ${columns}${withId ? ', r.id AS id' : ''} FROM ${l.from} WHERE ${l.where}${cap === null ? '' : ` ORDER BY ${orderBy(sort.map((k) => k.column))} LIMIT ${cap}`}`;
  const params = lists.flatMap((l) => l.params);
  if (lists.length === 1) return { sql: `(${head(lists[0], false)}) r`, params };
  // Each branch's first `cap` in order, then the first `cap` of their union (SQLite takes no parenthesized members: derived tables).
  const united = lists.map((l, i) => `SELECT * FROM (${head(l, true)}) b${i}`).join(' UNION ALL ');
  return {
    sql: `(SELECT * FROM (${united}) u${cap === null ? '' : ` ORDER BY ${orderBy(sort.map((k) => k.column.replace(/^r\./, 'u.')))} LIMIT ${cap}`}) r`,
    params,
  };
}

/**
 * The summary's statement: count and exact sums per status, overdue flag and aging bucket of the
 * lists' first `cap` rows in the list's order (a bounded read of the list's own index,
 * docs/decisions/bounded-list-totals.md), or of every row (`cap` null). One statement of the page's
 * batch; `parse` reads its rows.
 */
export function receivableGroupsStatement(
  lists: SqlList[],
  sort: SortKey[],
  today: string,
  cap: number | null,
): { sql: string; params: unknown[]; parse: (rows: Record<string, unknown>[]) => ReceivableGroup[] } {
  const st = groupedSumsStatement(
    summarySource(lists, sort, cap),
    {
      status: { sql: 'r.status', params: [] },
      overdue: { sql: `CASE WHEN ${overdueSql('?')} THEN 1 ELSE 0 END`, params: [today] },
      bucket: agingSql(today),
    },
    { amount: 'r.amount', received: 'r.received_amount', credited: 'r.credited_amount' },
  );
  return {
    sql: st.sql,
    params: st.params,
    parse: (rows) =>
      st.parse(rows).map((r) => ({
        status: r.status as ReceivableStatus,
        overdue: Number(r.overdue) === 1,
        bucket: r.bucket as AgingBucket | null,
        count: r.count,
        amount: r.amount,
        receivedAmount: r.received,
        creditedAmount: r.credited,
      })),
  };
}

/** How many rows the lists select, counted up to `cap + 1` (`n`): more than `cap` means the summary is capped. */
export function cappedCountStatement(lists: SqlList[], cap: number): { sql: string; params: unknown[] } {
  const united = lists
    .map((l, i) => `SELECT * FROM (SELECT r.id AS id FROM ${l.from} WHERE ${l.where} LIMIT ${cap + 1}) b${i}`)
    .join(' UNION ALL ');
  return { sql: `SELECT COUNT(*) AS n FROM (${united}) u`, params: lists.flatMap((l) => l.params) };
}

export interface ReceivableGroup {
  status: ReceivableStatus;
  overdue: boolean;
  bucket: AgingBucket | null;
  count: number;
  amount: Dec;
  receivedAmount: Dec;
  creditedAmount: Dec;
}
