import { In } from 'typeorm';
import { readBatch, readerOf } from '../../core/db/transaction';
import { AuditLog } from '../../core/audit/audit-log.entity';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { BatchRun, COUNT_CAP, Page, PageRequest, paginate, Pagination, SortKey, sqlListOf, typedSort } from '../../core/pagination';
import { paginateUnion } from '../../core/pagination-union';
import { Customer } from '../catalog';
import type { CustomerCredit } from './entities/customer-credit.entity';
import type { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable, ReceivableStatus } from './entities/receivable.entity';
import { RECEIPT_AUDIT, RECEIVABLE_AUDIT } from './receivables.events';
import {
  AGING_BUCKETS,
  AgingBucket,
  cappedCountStatement,
  creditsOfCustomer,
  loadReceivablesByIds,
  ReceivableFilters,
  ReceivableGroup,
  receivableGroupsStatement,
  receivableListBranches,
  receivableListQuery,
  receiptsOf,
} from './receivables.repository';
import { RECEIVABLE_STATUSES, UNSETTLED } from './receivables.state';
import { findAccessibleReceivable } from './receipts.service';

/* Lists, totals, aging, the customer statement, the CSV export and the audit trail of receivables. */

export interface ReceivableListQuery extends PageRequest, ReceivableFilters {
  sort?: 'dueDate' | '-dueDate';
  /** The summary over every row the filters select, however many (its cost grows with them). */
  exactSummary?: boolean;
}

export interface ReceivablesSummary {
  /** true when the filters select more than the cap (SUMMARY_CAP, STATEMENT_SUMMARY_CAP): the figures cover the list's first ones (lower bounds). */
  capped: boolean;
  count: number;
  /** Sums over the receivables that are not CANCELLED. */
  amount: Dec;
  receivedAmount: Dec;
  creditedAmount: Dec;
  /** Still to receive: amount − received − credited of OPEN and PARTIALLY_RECEIVED ones. */
  openAmount: Dec;
  overdueCount: number;
  overdueAmount: Dec;
  byStatus: Record<ReceivableStatus, { count: number; amount: Dec; receivedAmount: Dec }>;
  /** Open receivables by days past the due date: count and amount still open. */
  aging: Record<AgingBucket, { count: number; openAmount: Dec }>;
}

/** Overdue is derived: unsettled and due before today (business date). */
export const isOverdue = (r: Pick<Receivable, 'status' | 'dueDate'>, today = businessToday()) =>
  UNSETTLED.includes(r.status) && r.dueDate < today;

const sortOf = (q: { sort?: 'dueDate' | '-dueDate' }): SortKey[] => {
  const direction = q.sort === '-dueDate' ? 'DESC' : 'ASC';
  return [
    { column: 'r.due_date', direction },
    { column: 'r.id', direction },
  ];
};

/**
 * The summary of a list reads at most this many of its receivables: its first ones in the list's
 * order (bounded, like the count: SPEC §0 "Lists"); beyond, it is flagged `capped` and its counts and
 * sums are lower bounds. `exactSummary=true` reads every row (docs/decisions/bounded-list-totals.md).
 * Summing a row costs several times what counting an index entry does: the list's cap is a tenth of
 * the count's (a list page within 3× a primary-key read at 1 M orders); a customer's statement, a
 * document of what one customer owes, keeps the count's.
 */
export const SUMMARY_CAP = 1_000;
export const STATEMENT_SUMMARY_CAP = COUNT_CAP;

/** The summary of a list's groups (every row, or the first `cap`: then `capped` says whether more follow). */
function summaryOf(groups: ReceivableGroup[], capped: boolean): ReceivablesSummary {
  const summary: ReceivablesSummary = {
    capped,
    count: 0,
    amount: new Dec(0),
    receivedAmount: new Dec(0),
    creditedAmount: new Dec(0),
    openAmount: new Dec(0),
    overdueCount: 0,
    overdueAmount: new Dec(0),
    byStatus: Object.fromEntries(
      RECEIVABLE_STATUSES.map((s) => [s, { count: 0, amount: new Dec(0), receivedAmount: new Dec(0) }]),
    ) as ReceivablesSummary['byStatus'],
    aging: Object.fromEntries(AGING_BUCKETS.map((b) => [b, { count: 0, openAmount: new Dec(0) }])) as ReceivablesSummary['aging'],
  };
  for (const g of groups) {
    summary.count += g.count;
    const s = summary.byStatus[g.status];
    s.count += g.count;
    s.amount = s.amount.plus(g.amount);
    s.receivedAmount = s.receivedAmount.plus(g.receivedAmount);
    if (g.status === 'CANCELLED') continue;
    summary.amount = summary.amount.plus(g.amount);
    summary.receivedAmount = summary.receivedAmount.plus(g.receivedAmount);
    summary.creditedAmount = summary.creditedAmount.plus(g.creditedAmount);
    const open = g.amount.minus(g.receivedAmount).minus(g.creditedAmount);
    if (UNSETTLED.includes(g.status)) summary.openAmount = summary.openAmount.plus(open);
    if (g.bucket) {
      const a = summary.aging[g.bucket];
      a.count += g.count;
      a.openAmount = a.openAmount.plus(open);
    }
    if (g.overdue) {
      summary.overdueCount += g.count;
      summary.overdueAmount = summary.overdueAmount.plus(open);
    }
  }
  return summary;
}

/**
 * A page of the filtered receivables with its summary, in one batch (one round trip on MySQL): the
 * page's sort values, the summary's groups (the first `cap` rows in the list's order, or every row when
 * `exact`) and, when bounded, a count of at most `cap + 1` rows that says whether more follow. The
 * page's `total` is the summary's count (docs/decisions/bounded-list-totals.md): exact below the cap,
 * else the cap with `totalCapped` — one bounded read of the list, not a second one for the count.
 */
async function pageWithSummary<R>(
  ctx: TenantContext,
  filialId: number,
  filters: ReceivableFilters,
  sortKeys: SortKey[],
  request: PageRequest,
  bound: { cap: number; exact: boolean },
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
): Promise<Page<R> & { summary: ReceivablesSummary }> {
  const em = readerOf(ctx);
  const today = businessToday();
  const { single, branches } = receivableListBranches(em, ctx.companyId, filialId, filters, today);
  const sort = typedSort(single, sortKeys);
  const groups = receivableGroupsStatement(bound.exact ? [sqlListOf(single)] : branches, sort, today, bound.exact ? null : bound.cap);
  const statements = [groups, ...(bound.exact ? [] : [cappedCountStatement(branches, bound.cap)])];
  let results: unknown[] = [];
  const run: BatchRun = async (page) => {
    const all = await readBatch(em, [...page, ...statements]);
    results = all.slice(page.length);
    return all.slice(0, page.length);
  };
  const withoutCount = { ...request, includeTotal: false };
  const page =
    branches.length > 1
      ? await paginateUnion(branches, sort, withoutCount, load, idOf, run)
      : await paginate(branches[0], sort, withoutCount, load, idOf, run);
  const capped = !bound.exact && Number((results[1] as { n: string | number }[])[0]?.n ?? 0) > bound.cap;
  const summary = summaryOf(groups.parse(results[0] as Record<string, unknown>[]), capped);
  if (request.includeTotal === false) return { ...page, summary };
  const { hasMore, nextCursor } = page.pagination;
  const pagination: Pagination = {
    page: page.pagination.page,
    pageSize: page.pagination.pageSize,
    total: summary.count,
    ...(capped ? { totalCapped: true } : {}),
    totalPages: Math.ceil(summary.count / page.pagination.pageSize),
    hasMore,
    nextCursor,
  };
  return { data: page.data, pagination, summary };
}

export function listReceivables(
  ctx: TenantContext,
  filialId: number,
  query: ReceivableListQuery,
  options: { summaryCap?: number } = {},
): Promise<Page<Receivable> & { summary: ReceivablesSummary }> {
  const em = readerOf(ctx);
  return pageWithSummary(
    ctx,
    filialId,
    query,
    sortOf(query),
    query,
    { cap: options.summaryCap ?? SUMMARY_CAP, exact: query.exactSummary === true },
    (ids) => loadReceivablesByIds(em, ids),
    (r) => r.id,
  );
}

export interface CustomerStatement {
  customer: Pick<Customer, 'id' | 'name' | 'document'>;
  page: Page<{ receivable: Receivable; receipts: ReceivableReceipt[] }>;
  summary: ReceivablesSummary;
  credits: CustomerCredit[];
}

/**
 * A customer's statement in a filial: what they owe (their receivables, acquirers' excluded, with
 * their receipts), totals and aging, and the credits and refunds their returns left.
 */
export async function customerStatement(
  ctx: TenantContext,
  filialId: number,
  query: PageRequest & { customerId: number; dueFrom?: string; dueTo?: string; status?: ReceivableStatus; exactSummary?: boolean },
): Promise<CustomerStatement> {
  const em = readerOf(ctx);
  const customer = await em.findOne(Customer, {
    where: { id: query.customerId, companyId: ctx.companyId },
    select: { id: true, name: true, document: true },
  });
  if (!customer) throw new NotFoundError('Customer');
  const filters: ReceivableFilters = {
    customerId: query.customerId,
    debtorType: 'CUSTOMER',
    dueFrom: query.dueFrom,
    dueTo: query.dueTo,
    status: query.status,
  };
  const [{ summary, ...page }, credits] = await Promise.all([
    pageWithSummary(
      ctx,
      filialId,
      filters,
      sortOf({}),
      query,
      { cap: STATEMENT_SUMMARY_CAP, exact: query.exactSummary === true },
      async (ids) => {
        const [rows, receipts] = await Promise.all([loadReceivablesByIds(em, ids), receiptsOf(em, ctx.companyId, ids)]);
        return rows.map((receivable) => ({ receivable, receipts: receipts.filter((p) => p.receivableId === receivable.id) }));
      },
      (x) => x.receivable.id,
    ),
    creditsOfCustomer(em, ctx.companyId, filialId, query.customerId),
  ]);
  return { customer, page, summary, credits };
}

/** One page of the CSV export: the receivables, their customers (name, document) and their receipts. */
export interface ExportChunk {
  rows: Receivable[];
  customers: Map<number, Pick<Customer, 'id' | 'name' | 'document'>>;
  receipts: ReceivableReceipt[];
}

/** Every receivable the list's filters select, in the list's order, read by keyset pages (the CSV export), with the customers and receipts the CSV shows. */
export async function* exportReceivables(ctx: TenantContext, filialId: number, query: ReceivableListQuery): AsyncGenerator<ExportChunk> {
  const em = readerOf(ctx);
  for await (const rows of exportPages(ctx, filialId, query)) {
    const customerIds = [...new Set(rows.map((r) => r.customerId).filter((id): id is number => id !== null))];
    const [customers, receipts] = await Promise.all([
      customerIds.length
        ? em.find(Customer, { where: { companyId: ctx.companyId, id: In(customerIds) }, select: { id: true, name: true, document: true } })
        : Promise.resolve([]),
      receiptsOf(
        em,
        ctx.companyId,
        rows.map((r) => r.id),
      ),
    ]);
    yield { rows, customers: new Map(customers.map((c) => [c.id, c])), receipts };
  }
}

async function* exportPages(ctx: TenantContext, filialId: number, query: ReceivableListQuery): AsyncGenerator<Receivable[]> {
  const em = readerOf(ctx);
  const today = businessToday();
  let cursor: string | undefined;
  for (;;) {
    const page = await paginate(
      receivableListQuery(em, ctx.companyId, filialId, query, today),
      sortOf(query),
      { page: 1, pageSize: 500, cursor, includeTotal: false },
      (ids) => loadReceivablesByIds(em, ids),
      (r) => r.id,
    );
    if (page.data.length) yield page.data;
    if (!page.pagination.hasMore || !page.pagination.nextCursor) return;
    cursor = page.pagination.nextCursor;
  }
}

/** The audit trail of a receivable and of its receipts, oldest first (creation included). */
export async function receivableAuditTrail(ctx: TenantContext, id: number): Promise<{ receivable: Receivable; entries: AuditLog[] }> {
  const receivable = await findAccessibleReceivable(ctx, id);
  const em = readerOf(ctx);
  const receiptIds = (await receiptsOf(em, ctx.companyId, [id])).map((p) => p.id);
  const qb = em
    .createQueryBuilder(AuditLog, 'a')
    .where('a.company_id = :companyId', { companyId: ctx.companyId })
    .andWhere(
      receiptIds.length
        ? '((a.entity = :own AND a.entity_id = :id) OR (a.entity = :receipt AND a.entity_id IN (:...receiptIds)))'
        : 'a.entity = :own AND a.entity_id = :id',
      {
        own: RECEIVABLE_AUDIT,
        id,
        receipt: RECEIPT_AUDIT,
        receiptIds,
      },
    )
    .orderBy('a.id', 'ASC');
  return { receivable, entries: await qb.getMany() };
}
