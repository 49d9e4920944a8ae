import { EntityManager } from 'typeorm';
import { Changes, diff, recordAudit } from '../../core/audit/audit.service';
import { addCalendarDays } from '../../core/business-date';
import type { ActorContext } from '../../core/context';
import { appendOnCommit, readerOf } from '../../core/db/transaction';
import type { TenantRow } from '../../core/db/sql';
import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { type PaymentMethod, settlementOf } from '../catalog';
import type { Receivable } from './entities/receivable.entity';
import { cancelReceivable, concurrentChange } from './cancellation';
import { RECEIVABLE_AUDIT, receivableFields } from './receivables.events';
import {
  deferBirthReceipts,
  deferInsertReceivables,
  deferRowsPerReceivable,
  receivablesOfFulfillment,
  updateReceivableIf,
} from './receivables.repository';
import { feeOf, installments, openAmountOf } from './receivables.rules';

/*
 * Receivables are born in the transaction that bills (SPEC §13): a fulfilment (its order's payment
 * terms) or a counter sale (one per payment). Both are hot transactions, so the rows, the receipts of
 * those born RECEIVED, their audit rows and their `receivable.created` events are deferred writes
 * that travel with the transaction's next batch (on MySQL no round trip is added): the receipts,
 * audit rows and events take each receivable's id from the row just inserted (INSERT … SELECT by
 * fulfilment and installment number), since a deferred insert answers no id.
 */

const ZERO = new Dec(0);

/** What a fulfilment bills (the sales-order module computes it). */
export interface FulfillmentBilling {
  filialId: number;
  salesOrderId: number;
  salesOrderCode: number;
  fulfillmentId: number;
  customerId: number | null;
  /** The billing date (business date). */
  issueDate: string;
  /** The value this fulfilment bills. */
  amount: Dec;
  /** Days from the billing date of each installment (the order's payment terms; [0] without). */
  installmentDays: number[];
}

/** A counter sale's payments (the quick-sale module settles them). */
export interface SaleBilling {
  filialId: number;
  salesOrderId: number;
  salesOrderCode: number;
  fulfillmentId: number;
  customerId: number | null;
  issueDate: string;
  /** The order's payment terms, for a prazo payments (else the method's settlement days). */
  installmentDays: number[] | null;
  /** What each payment settled of the sale (change already taken off). */
  payments: { method: PaymentMethod; amount: Dec; card?: CardIdentification | null }[];
}

/** A card payment's identification as the TEF or the POS gave it; it goes onto the acquirer's receivable. */
export interface CardIdentification {
  nsu: string | null;
  authorizationCode: string | null;
  cardBrand: string | null;
  acquirerCnpj: string | null;
}

type NewReceivable = TenantRow<Receivable> & Omit<Receivable, 'id' | 'createdAt' | 'updatedAt' | 'cancelledAt' | 'version'>;

const customerRow = (
  base: Omit<FulfillmentBilling, 'amount' | 'installmentDays'>,
  origin: Receivable['originType'],
  method: PaymentMethod | null,
) => ({
  companyId: 0,
  filialId: base.filialId,
  debtorType: 'CUSTOMER' as const,
  customerId: base.customerId,
  paymentMethodId: method?.id ?? null,
  paymentMethodCode: method?.code ?? null,
  originType: origin,
  salesOrderId: base.salesOrderId,
  salesOrderCode: base.salesOrderCode,
  fulfillmentId: base.fulfillmentId,
  fiscalDocumentId: null,
  accessKey: null,
  issueDate: base.issueDate,
  feePercent: ZERO,
  feeAmount: ZERO,
  receivedAmount: ZERO,
  creditedAmount: ZERO,
  cancelReason: null,
  nsu: null,
  authorizationCode: null,
  cardBrand: null,
  acquirerCnpj: null,
});

/** One receivable per installment of the fulfilment's value (nothing when it bills nothing). */
export function fulfillmentReceivables(companyId: number, b: FulfillmentBilling): NewReceivable[] {
  if (b.amount.lte(0)) return [];
  const parts = installments(b.amount, b.issueDate, b.installmentDays);
  return parts.map((p) => ({
    ...customerRow(b, 'FULFILLMENT', null),
    companyId,
    installmentNumber: p.number,
    installmentCount: parts.length,
    dueDate: p.dueDate,
    grossAmount: p.amount,
    amount: p.amount,
    status: 'OPEN' as const,
  }));
}

/**
 * One receivable per payment of a counter sale: AT_ONCE (cash, Pix) born RECEIVED on the sale date;
 * ACQUIRER (cards) owed by the acquirer `settlementDays` later, net of its fee; ON_CREDIT (a prazo,
 * boleto) owed by the customer in the order's installments, or in one `settlementDays` later.
 */
export function saleReceivables(companyId: number, b: SaleBilling): NewReceivable[] {
  const rows: NewReceivable[] = [];
  for (const p of b.payments) {
    if (p.amount.lte(0)) continue;
    const s = settlementOf(p.method);
    const base = { ...customerRow(b, 'QUICK_SALE', p.method), companyId };
    if (s.settlement === 'ON_CREDIT') {
      for (const part of installments(p.amount, b.issueDate, b.installmentDays ?? [s.settlementDays])) {
        rows.push({
          ...base,
          installmentNumber: 0,
          installmentCount: 0,
          dueDate: part.dueDate,
          grossAmount: part.amount,
          amount: part.amount,
          status: 'OPEN',
        });
      }
    } else if (s.settlement === 'ACQUIRER') {
      const fee = feeOf(p.amount, s.feePercent);
      rows.push({
        ...base,
        debtorType: 'ACQUIRER',
        dueDate: addCalendarDays(b.issueDate, s.settlementDays),
        installmentNumber: 0,
        installmentCount: 0,
        grossAmount: p.amount,
        feePercent: s.feePercent,
        feeAmount: fee,
        amount: p.amount.minus(fee),
        status: 'OPEN',
        ...(p.card
          ? { nsu: p.card.nsu, authorizationCode: p.card.authorizationCode, cardBrand: p.card.cardBrand, acquirerCnpj: p.card.acquirerCnpj }
          : {}),
      });
    } else {
      rows.push({
        ...base,
        dueDate: b.issueDate,
        installmentNumber: 0,
        installmentCount: 0,
        grossAmount: p.amount,
        amount: p.amount,
        receivedAmount: p.amount,
        status: 'RECEIVED',
      });
    }
  }
  // Numbered across the sale, so a fulfilment's receivables are (fulfilment, installment) apart.
  rows.forEach((r, i) => Object.assign(r, { installmentNumber: i + 1, installmentCount: rows.length }));
  return rows;
}

/** The creation's audit changes: every field of the event's payload but the filial, as [null, value]. */
const creationAudit = (fields: ReturnType<typeof receivableFields>): Changes => {
  const changes: Changes = {};
  for (const [k, v] of Object.entries(fields)) if (k !== 'filialId' && v !== null) changes[k] = [null, v];
  return changes;
};

interface BillingTrail {
  ctx: ActorContext;
  fulfillmentId: number;
  rows: NewReceivable[];
}

/**
 * The audit rows and `receivable.created` events of the transaction's billings, written at commit
 * after the transaction's other audit rows and events (the sale's own come first in the stream).
 */
async function writeBillingTrails(em: EntityManager, trails: BillingTrail[]): Promise<void> {
  for (const { ctx, fulfillmentId, rows } of trails) {
    // Each receivable's payload once, for its audit row and its event.
    const fields = new Map(rows.map((r) => [r.installmentNumber, receivableFields(r)]));
    const numbers = rows.map((r) => r.installmentNumber);
    await deferRowsPerReceivable(
      em,
      'audit_log',
      ['company_id', 'entity', 'entity_id', 'action', 'actor', 'request_id', 'changes'],
      [
        'r.company_id',
        `'${RECEIVABLE_AUDIT}'`,
        'r.id',
        "'CREATED'",
        { value: ctx.actor },
        { value: ctx.requestId ?? null },
        (n) => JSON.stringify(creationAudit(fields.get(n)!)),
      ],
      ctx.companyId,
      fulfillmentId,
      numbers,
    );
    await deferRowsPerReceivable(
      em,
      'outbox_event',
      ['company_id', 'filial_id', 'type', 'aggregate_type', 'aggregate_id', 'data'],
      ['r.company_id', 'r.filial_id', "'receivable.created'", `'${RECEIVABLE_AUDIT}'`, 'r.id', (n) => JSON.stringify(fields.get(n))],
      ctx.companyId,
      fulfillmentId,
      numbers,
    );
  }
}

/** Writes a billing's receivables and the receipts of those born RECEIVED (deferred); their audit rows and events go at commit. */
async function writeBilling(em: EntityManager, ctx: ActorContext, fulfillmentId: number, rows: NewReceivable[]): Promise<NewReceivable[]> {
  if (!rows.length) return rows;
  await deferInsertReceivables(em, rows);
  if (rows.some((r) => r.status === 'RECEIVED'))
    await deferBirthReceipts(em, ctx.companyId, fulfillmentId, ctx.actor, 'received at the sale');
  await appendOnCommit(em, writeBillingTrails, { ctx, fulfillmentId, rows });
  return rows;
}

/** Bills a fulfilment in the caller's transaction: one receivable per installment of its value. */
export const billFulfillment = (em: EntityManager, ctx: ActorContext, billing: FulfillmentBilling) =>
  writeBilling(em, ctx, billing.fulfillmentId, fulfillmentReceivables(ctx.companyId, billing));

/** Bills a counter sale in the caller's transaction: one receivable per payment. */
export const billSale = (em: EntityManager, ctx: ActorContext, billing: SaleBilling) =>
  writeBilling(em, ctx, billing.fulfillmentId, saleReceivables(ctx.companyId, billing));

/**
 * The customer's receivables a billing (fulfilment or counter sale) wrote that are still open, locked
 * (MySQL), with what each still owes, oldest installment first: collection issues their boletos in
 * the billing transaction (a sales order's boleto account). Rows born RECEIVED (cash, Pix) and the
 * acquirers' (cards) are left out. The billing's deferred inserts go out with this read.
 */
export async function openCustomerReceivablesOfBilling(
  em: EntityManager,
  companyId: number,
  fulfillmentId: number,
): Promise<{ receivable: Receivable; open: Dec }[]> {
  return (await customerReceivablesOfBillings(em, companyId, [fulfillmentId])).filter((b) => b.receivable.status === 'OPEN');
}

/**
 * Every customer receivable of these billings, whatever its status (cancelled ones too), locked
 * (MySQL) in fulfilment then installment order, with what each still owes: collection makes the
 * boletos follow them when an NF-e re-makes or cancels them.
 */
export async function customerReceivablesOfBillings(
  em: EntityManager,
  companyId: number,
  fulfillmentIds: number[],
): Promise<{ receivable: Receivable; open: Dec }[]> {
  const rows: Receivable[] = [];
  for (const id of [...new Set(fulfillmentIds)].sort((a, b) => a - b))
    rows.push(...(await receivablesOfFulfillment(em, companyId, id, true)));
  return rows.filter((r) => r.debtorType === 'CUSTOMER').map((r) => ({ receivable: r, open: openAmountOf(r) }));
}

/* ---- The NF-e emission's seam (SPEC §12.2): stable exports, see docs/decisions.md. ---- */

/** The duplicatas of a fulfilment's NF-e: its customer's receivables that stand, by installment. */
export async function fulfillmentInstallments(
  ctx: ActorContext,
  fulfillmentId: number,
  em: EntityManager = readerOf(ctx),
): Promise<Array<{ number: number; dueDate: string; amount: Dec }>> {
  const rows = await receivablesOfFulfillment(em, ctx.companyId, fulfillmentId);
  return rows
    .filter((r) => r.debtorType === 'CUSTOMER' && r.status !== 'CANCELLED')
    .map((r) => ({ number: r.installmentNumber, dueDate: r.dueDate, amount: r.amount }));
}

/** The NF-e of the fulfilment was authorized: its receivables' origin becomes that fiscal document (audited). */
export async function attachFiscalDocument(
  em: EntityManager,
  ctx: ActorContext,
  input: { fulfillmentId: number; fiscalDocumentId: number; accessKey: string },
): Promise<Receivable[]> {
  const rows = await receivablesOfFulfillment(em, ctx.companyId, input.fulfillmentId, true);
  // Rows cancelled with a reason (replaced by this NF-e's installments, or gone with an earlier cancelled NF-e) are not this document's.
  for (const r of rows.filter((x) => !(x.status === 'CANCELLED' && x.cancelReason !== null))) {
    const values = { originType: 'FISCAL_DOCUMENT' as const, fiscalDocumentId: input.fiscalDocumentId, accessKey: input.accessKey };
    if (!(await updateReceivableIf(em, ctx.companyId, r.id, { status: r.status, version: r.version }, values))) throw concurrentChange();
    await recordAudit(em, ctx, {
      entity: RECEIVABLE_AUDIT,
      entityId: r.id,
      action: 'FISCAL_DOCUMENT_ATTACHED',
      changes: diff({ origin: r.originType, accessKey: r.accessKey }, { origin: values.originType, accessKey: values.accessKey }),
    });
  }
  return receivablesOfFulfillment(em, ctx.companyId, input.fulfillmentId);
}

/**
 * The NF-e of the fulfilment was cancelled: its receivables are cancelled, in the caller's
 * transaction. 422 RECEIVABLE_HAS_RECEIPTS when any has a standing receipt (reverse them first).
 */
export async function cancelForFiscalDocument(
  em: EntityManager,
  ctx: ActorContext,
  input: { fulfillmentId: number; reason: string },
): Promise<Receivable[]> {
  const rows = await receivablesOfFulfillment(em, ctx.companyId, input.fulfillmentId, true);
  const received = rows.filter((r) => r.receivedAmount.gt(0));
  if (received.length) {
    throw new BusinessRuleError(
      'RECEIVABLE_HAS_RECEIPTS',
      'A receivable of this document has receipts; reverse them before cancelling the document',
      {
        receivableIds: received.map((r) => encodeId('receivable', r.id)),
      },
    );
  }
  for (const r of rows.filter((x) => x.status === 'OPEN')) await cancelReceivable(em, ctx, r, input.reason);
  return receivablesOfFulfillment(em, ctx.companyId, input.fulfillmentId);
}
