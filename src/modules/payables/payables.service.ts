import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext, TenantContext } from '../../core/context';
import { encodeOptionalId } from '../../core/hashids';
import { currentScope } from '../../core/request-context';
import { isMysql } from '../../core/db/engine';
import { deferWrite, readerOf } from '../../core/db/transaction';
import { Dec, toJsonNumber } from '../../core/decimal';
import type { TenantRow } from '../../core/db/sql';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { businessToday } from '../../core/business-date';
import { entryDocumentAccess } from './payables.ports';
import { PAYABLE_AUDIT } from './payments.service';
import { Payable, PayableStatus } from './entities/payable.entity';
import { EntityManager } from 'typeorm';
import {
  AGING_BUCKETS,
  AgingBucket,
  cancelOpenCtePayables,
  cancelOpenPayables,
  documentPayablesQuery,
  insertPayables,
  loadPayablesByIds,
  PayableFilters,
  payableGroups,
  payableListQuery,
  payablesOfCte,
  payablesOfDocument,
  UNSETTLED,
} from './payables.repository';

export interface PayableListQuery extends PageRequest, PayableFilters {
  sort?: 'dueDate' | '-dueDate';
}

const STATUSES: PayableStatus[] = ['OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'];

export interface PayablesSummary {
  count: number;
  /** Sums over the payables that are not CANCELLED. */
  amount: Dec;
  paidAmount: Dec;
  /** Still to pay: amount − paid of OPEN and PARTIALLY_PAID ones. */
  openAmount: Dec;
  overdueCount: number;
  overdueAmount: Dec;
  byStatus: Record<PayableStatus, { count: number; amount: Dec; paidAmount: Dec }>;
  /** Unsettled payables by days to (or past) the due date: count and amount still open. */
  aging: Record<AgingBucket, { count: number; openAmount: Dec }>;
}

/** Overdue is derived: unsettled and due before today (business date). */
export const isOverdue = (p: Pick<Payable, 'status' | 'dueDate'>, today = businessToday()) =>
  UNSETTLED.includes(p.status) && p.dueDate < today;

/** An entry document's payables in installment order, for the entry-document module. */
export const documentPayables = (em: EntityManager, companyId: number, entryDocumentId: number): Promise<Payable[]> =>
  payablesOfDocument(em, companyId, entryDocumentId);

/**
 * Who creates payables: the caller's context, else the request's (authenticate puts the token's subject
 * on the request scope), else the background job ('system').
 */
function creator(companyId: number, ctx?: ActorContext): ActorContext {
  if (ctx) return ctx;
  const scope = currentScope();
  return { companyId, actor: scope?.actor ?? 'system', requestId: scope?.requestId };
}

/** Every payable is created with its audit row (CREATED: source, installment, due date, amount). */
async function auditCreated(em: EntityManager, ctx: ActorContext, payables: Payable[]): Promise<void> {
  for (const p of payables) {
    await recordAudit(em, ctx, {
      entity: PAYABLE_AUDIT,
      entityId: p.id,
      action: 'CREATED',
      changes: diff(
        {},
        {
          status: p.status,
          sourceType: p.sourceType,
          entryDocumentId: encodeOptionalId('entry-document', p.entryDocumentId),
          cteId: encodeOptionalId('cte', p.cteId),
          supplierDocument: p.supplierDocument,
          documentNumber: p.documentNumber,
          installmentNumber: p.installmentNumber,
          dueDate: p.dueDate,
          amount: toJsonNumber(p.amount, 'amount'),
        },
      ),
    });
  }
}

/**
 * The CREATED audit rows of a document's payables, written from the rows just inserted by one
 * INSERT … SELECT deferred with the transaction's next statement: the payables' ids are never read
 * back, so confirming costs no extra round trip (tests/core/round-trips.test.ts).
 */
function auditDocumentPayables(em: EntityManager, ctx: ActorContext, companyId: number, entryDocumentId: number): Promise<void> {
  const [obj, arr] = isMysql ? ['JSON_OBJECT', 'JSON_ARRAY'] : ['json_object', 'json_array'];
  const amount = isMysql ? 'amount' : 'CAST(amount AS REAL)';
  const changes = `${obj}('status', ${arr}(NULL, status), 'sourceType', ${arr}(NULL, source_type), 'supplierDocument', ${arr}(NULL, supplier_document), 'documentNumber', ${arr}(NULL, document_number), 'installmentNumber', ${arr}(NULL, installment_number), 'dueDate', ${arr}(NULL, due_date), 'amount', ${arr}(NULL, ${amount}))`;
  return deferWrite(em, {
    label: 'payables audit',
    sql: `INSERT INTO audit_log (company_id, entity, entity_id, action, actor, request_id, changes) SELECT company_id, ?, id, 'CREATED', ?, ?, ${changes} FROM payable WHERE company_id = ? AND entry_document_id = ?`,
    params: [PAYABLE_AUDIT, ctx.actor, ctx.requestId ?? null, companyId, entryDocumentId],
  });
}

/** Creates a confirmed entry document's payables inside the caller's transaction (one INSERT per chunk), audited. */
export async function createDocumentPayables(em: EntityManager, rows: TenantRow<Payable>[], ctx?: ActorContext): Promise<void> {
  await insertPayables(em, rows);
  if (!rows.length) return;
  const { companyId, entryDocumentId } = rows[0];
  await auditDocumentPayables(em, creator(companyId, ctx), companyId, entryDocumentId!);
}

/**
 * Cancels an entry document's payables that are still OPEN, in one statement; returns how many. A
 * payable paid in the meantime is left alone, so fewer than expected tells the caller to give up.
 */
export const cancelDocumentPayables = (em: EntityManager, companyId: number, entryDocumentId: number): Promise<number> =>
  cancelOpenPayables(em, companyId, entryDocumentId);

/** A CT-e's payables (the carrier's freight), for the CT-e module. */
export const ctePayables = (em: EntityManager, companyId: number, cteId: number): Promise<Payable[]> => payablesOfCte(em, companyId, cteId);

/** Creates a CT-e's payables inside the caller's transaction (source CTE, no entry document). */
export async function createCtePayables(
  em: EntityManager,
  base: Pick<
    Payable,
    'companyId' | 'filialId' | 'cteId' | 'supplierId' | 'supplierDocument' | 'supplierName' | 'documentNumber' | 'issueDate'
  >,
  installments: { number: number; dueDate: string; amount: Dec }[],
  ctx?: ActorContext,
): Promise<Payable[]> {
  await insertPayables(
    em,
    installments.map((p) => ({
      ...base,
      entryDocumentId: null,
      sourceType: 'CTE' as const,
      installmentNumber: p.number,
      dueDate: p.dueDate,
      amount: p.amount,
      status: 'OPEN' as const,
      version: 1,
    })),
  );
  const created = await payablesOfCte(em, base.companyId, base.cteId!);
  await auditCreated(em, creator(base.companyId, ctx), created);
  return created;
}

/** Cancels a CT-e's OPEN payables; returns how many (fewer than the open ones read → one was paid meanwhile). */
export const cancelCtePayables = (em: EntityManager, companyId: number, cteId: number): Promise<number> =>
  cancelOpenCtePayables(em, companyId, cteId);

/** A document's payables by installment: a two-phase list like every other. */
export async function listDocumentPayables(ctx: TenantContext, entryDocumentId: number, page: PageRequest): Promise<Page<Payable>> {
  await entryDocumentAccess.get()(ctx, entryDocumentId);
  const em = readerOf(ctx);
  return paginate(
    documentPayablesQuery(em, ctx.companyId, entryDocumentId),
    [
      { column: 'p.installment_number', direction: 'ASC' },
      { column: 'p.id', direction: 'ASC' },
    ],
    page,
    (ids) => loadPayablesByIds(em, ids),
    (p) => p.id,
  );
}

export async function listPayables(
  ctx: TenantContext,
  filialId: number,
  query: PayableListQuery,
): Promise<Page<Payable> & { summary: PayablesSummary }> {
  const em = readerOf(ctx);
  const today = businessToday();
  const filtered = payableListQuery(em, ctx.companyId, filialId, query, today);
  const direction = query.sort === '-dueDate' ? 'DESC' : 'ASC';
  const page = await paginate(
    filtered,
    [
      { column: 'p.due_date', direction },
      { column: 'p.id', direction },
    ],
    query,
    (ids) => loadPayablesByIds(em, ids),
    (p) => p.id,
  );
  const summary: PayablesSummary = {
    count: 0,
    amount: new Dec(0),
    paidAmount: new Dec(0),
    openAmount: new Dec(0),
    overdueCount: 0,
    overdueAmount: new Dec(0),
    byStatus: Object.fromEntries(
      STATUSES.map((s) => [s, { count: 0, amount: new Dec(0), paidAmount: new Dec(0) }]),
    ) as PayablesSummary['byStatus'],
    aging: Object.fromEntries(AGING_BUCKETS.map((b) => [b, { count: 0, openAmount: new Dec(0) }])) as PayablesSummary['aging'],
  };
  for (const g of await payableGroups(filtered, today)) {
    summary.count += g.count;
    const s = summary.byStatus[g.status];
    s.count += g.count;
    s.amount = s.amount.plus(g.amount);
    s.paidAmount = s.paidAmount.plus(g.paidAmount);
    if (g.status === 'CANCELLED') continue;
    summary.amount = summary.amount.plus(g.amount);
    summary.paidAmount = summary.paidAmount.plus(g.paidAmount);
    if (UNSETTLED.includes(g.status)) summary.openAmount = summary.openAmount.plus(g.amount.minus(g.paidAmount));
    if (g.bucket) {
      const a = summary.aging[g.bucket];
      a.count += g.count;
      a.openAmount = a.openAmount.plus(g.amount.minus(g.paidAmount));
    }
    if (g.overdue) {
      summary.overdueCount += g.count;
      summary.overdueAmount = summary.overdueAmount.plus(g.amount.minus(g.paidAmount));
    }
  }
  return { ...page, summary };
}
