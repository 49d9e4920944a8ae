import { EntityManager } from 'typeorm';
import { Changes, diff, recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, toFixed, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, StateConflictError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { settlementAmounts, SettlementInput } from '../../core/settlement';
import { activePaymentMethod } from '../catalog';
import type { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable } from './entities/receivable.entity';
import { RECEIPT_AUDIT, RECEIVABLE_AUDIT, receiptData, receivableData } from './receivables.events';
import { findReceipt, findReceivable, insertReceipt, receiptsOf, reverseReceiptIf, updateReceivableIf } from './receivables.repository';
import { openAmountOf, statusFor } from './receivables.rules';
import { assertAllowed, assertTransition, ReceivableAction } from './receivables.state';

/*
 * Receipts of receivables (SPEC §13), as payments of payables (payables/payments.service.ts; the
 * arithmetic is core/settlement.ts). A receipt settles `amount` of what is open (never more);
 * received amount and status follow the receipts that stand. Receipts, reversals and return credits
 * of one receivable queue on its row (locked on MySQL, serialized on SQLite), so two receipts of its
 * last balance cannot both pass; the fiscal document's cancellation, which refuses a receivable with
 * receipts under the same lock, cannot slip past one either.
 */

export interface ReceiptInput extends SettlementInput {
  receiptDate: string;
  /** The tenant's payment-method code. */
  method: string;
  note?: string | null;
}

/** A receipt another module records in its own transaction (collection: a bank return's liquidação). */
export interface RecordReceiptInput extends ReceiptInput {
  /** The bank's fee (tarifa), kept on the receipt; not part of what the payer paid. */
  bankFee?: Dec | null;
  /** The day the money is credited to the account (may be after the receipt date). */
  creditDate?: string | null;
}

const money = (d: Dec) => toJsonNumber(d, 'amount');

/** A receivable of the caller's company (else 404) in a filial the token grants (else 403). */
export async function findAccessibleReceivable(ctx: TenantContext, id: number): Promise<Receivable> {
  const r = await findReceivable(readerOf(ctx), ctx.companyId, id);
  if (!r) throw new NotFoundError('Receivable');
  await assertFilialAccess(ctx, r.filialId);
  return r;
}

export async function getReceivableDetail(ctx: TenantContext, id: number): Promise<{ receivable: Receivable; receipts: ReceivableReceipt[] }> {
  const receivable = await findAccessibleReceivable(ctx, id);
  return { receivable, receipts: await receiptsOf(readerOf(ctx), ctx.companyId, [id]) };
}

async function lockedReceivable(em: EntityManager, ctx: TenantContext, id: number): Promise<Receivable> {
  const r = await findReceivable(em, ctx.companyId, id, true);
  if (!r) throw new NotFoundError('Receivable');
  return r;
}

/** Writes what is received (and its status) conditionally on the status and version read under the lock. */
export async function writeSettled(em: EntityManager, companyId: number, before: Receivable, values: { receivedAmount: Dec; creditedAmount: Dec }, action: ReceivableAction): Promise<Receivable> {
  const status = statusFor(before.amount, values.receivedAmount, values.creditedAmount);
  assertTransition(before, action, status);
  if (!(await updateReceivableIf(em, companyId, before.id, { status: before.status, version: before.version }, { ...values, status, cancelled: status === 'CANCELLED' }))) {
    // Unreachable while the row is locked; kept so a change of locking cannot go unnoticed.
    throw new ConflictError('CONCURRENT_UPDATE', 'The receivable changed meanwhile; retry', { retryable: true });
  }
  return (await findReceivable(em, companyId, before.id))!;
}

export const settledChanges = (before: Receivable, after: Receivable): Changes =>
  diff(
    { receivedAmount: toFixed(before.receivedAmount, 'amount'), creditedAmount: toFixed(before.creditedAmount, 'amount'), status: before.status },
    { receivedAmount: toFixed(after.receivedAmount, 'amount'), creditedAmount: toFixed(after.creditedAmount, 'amount'), status: after.status },
  );

/** A receipt or reversal: the receipt, the receivable after it, and all the receivable's receipts. */
export interface ReceiptOutcome {
  receivable: Receivable;
  receipt: ReceivableReceipt;
  receipts: ReceivableReceipt[];
}

export async function registerReceipt(ctx: TenantContext, receivableId: number, input: ReceiptInput): Promise<ReceiptOutcome> {
  await findAccessibleReceivable(ctx, receivableId);
  const { receivable, receipt } = await inTransaction(ctx, (em) => recordReceipt(em, ctx, receivableId, input));
  return { receivable, receipt, receipts: await receiptsOf(readerOf(ctx), ctx.companyId, [receivable.id]) };
}

/** What a receivable still owes, read under its lock (MySQL) inside the caller's transaction: null when unknown. */
export async function lockedReceivableBalance(em: EntityManager, companyId: number, receivableId: number): Promise<{ receivable: Receivable; open: Dec } | null> {
  const r = await findReceivable(em, companyId, receivableId, true);
  return r ? { receivable: r, open: openAmountOf(r) } : null;
}

/**
 * The core of a receipt, inside the caller's transaction `em` (the caller checked the filial): locks
 * the receivable, refuses more than what is open (422 RECEIPT_EXCEEDS_BALANCE) or a settled/cancelled
 * one (409), writes the receipt, the receivable's received amount and status, audit and the event.
 */
export async function recordReceipt(em: EntityManager, ctx: TenantContext, receivableId: number, input: RecordReceiptInput): Promise<{ receivable: Receivable; receipt: ReceivableReceipt }> {
  const { interest, fine, discount, total } = settlementAmounts(input, { field: 'receiptDate', value: input.receiptDate, futureCode: 'RECEIPT_DATE_IN_FUTURE' });
  const bankFee = input.bankFee ?? new Dec(0);
  if (bankFee.lt(0)) throw new ValidationError('Invalid request', [{ path: 'bankFee', message: 'bankFee cannot be negative' }]);
  const method = await activePaymentMethod(em, ctx.companyId, input.method);
  const r = await lockedReceivable(em, ctx, receivableId);
  assertAllowed(r, 'receive');
  const open = openAmountOf(r);
  if (input.amount.gt(open)) {
    throw new BusinessRuleError('RECEIPT_EXCEEDS_BALANCE', `The receipt of ${toFixed(input.amount, 'amount')} exceeds the open balance of ${toFixed(open, 'amount')}`, {
      openAmount: money(open),
      amount: money(input.amount),
    });
  }
  const id = await insertReceipt(em, {
    companyId: ctx.companyId,
    filialId: r.filialId,
    receivableId: r.id,
    status: 'ACTIVE',
    receiptDate: input.receiptDate,
    paymentMethodId: method.id,
    paymentMethodCode: method.code,
    amount: input.amount,
    interest,
    fine,
    discount,
    total,
    bankFee,
    creditDate: input.creditDate ?? null,
    note: input.note?.trim() || null,
    createdBy: ctx.actor,
    reversedAt: null,
    reversedBy: null,
    reversalReason: null,
    version: 1,
  });
  const updated = await writeSettled(em, ctx.companyId, r, { receivedAmount: r.receivedAmount.plus(input.amount), creditedAmount: r.creditedAmount }, 'receive');
  const receipt = (await findReceipt(em, ctx.companyId, id))!;
  await recordAudit(em, ctx, {
    entity: RECEIPT_AUDIT,
    entityId: id,
    action: 'CREATED',
    changes: diff({}, { receivableId: encodeId('receivable', r.id), ...receiptData(receipt), note: receipt.note }),
  });
  await recordAudit(em, ctx, {
    entity: RECEIVABLE_AUDIT,
    entityId: r.id,
    action: 'RECEIPT_REGISTERED',
    changes: { ...settledChanges(r, updated), receiptId: [null, encodeId('receivable-receipt', id)] },
  });
  await publishEvent(em, ctx, {
    type: 'receivable.received',
    filialId: r.filialId,
    aggregateType: RECEIVABLE_AUDIT,
    aggregateId: r.id,
    data: { ...receivableData(updated), receipt: receiptData(receipt) },
  });
  return { receivable: updated, receipt };
}

export async function reverseReceipt(ctx: TenantContext, receiptId: number, reason: string): Promise<ReceiptOutcome> {
  const found = await findReceipt(readerOf(ctx), ctx.companyId, receiptId);
  if (!found) throw new NotFoundError('Receipt', 'RECEIPT_NOT_FOUND');
  await assertFilialAccess(ctx, found.filialId);
  const { receivable, receipt } = await inTransaction(ctx, (em) => reverseReceiptIn(em, ctx, receiptId, reason));
  return { receivable, receipt, receipts: await receiptsOf(readerOf(ctx), ctx.companyId, [receivable.id]) };
}

/**
 * The core of a reversal, inside the caller's transaction `em` (the caller checked the filial;
 * collection: a Pix refunded through the PSP): locks the receivable, refuses a receipt already
 * reversed (409 RECEIPT_ALREADY_REVERSED), writes the reversal, the receivable's received amount and
 * status, audit and the event.
 */
export async function reverseReceiptIn(em: EntityManager, ctx: TenantContext, receiptId: number, reason: string): Promise<{ receivable: Receivable; receipt: ReceivableReceipt }> {
  const found = await findReceipt(em, ctx.companyId, receiptId);
  if (!found) throw new NotFoundError('Receipt', 'RECEIPT_NOT_FOUND');
  const r = await lockedReceivable(em, ctx, found.receivableId);
  const receipt = (await findReceipt(em, ctx.companyId, receiptId))!;
  if (receipt.status !== 'ACTIVE') throw new StateConflictError('Receipt', receipt.status, 'reverse', 'RECEIPT_ALREADY_REVERSED');
  assertAllowed(r, 'reverse-receipt');
  if (!(await reverseReceiptIf(em, ctx.companyId, receipt.id, receipt.version, { reversedAt: new Date(), reversedBy: ctx.actor, reversalReason: reason }))) {
    throw new ConflictError('CONCURRENT_UPDATE', 'The receipt changed meanwhile; retry', { retryable: true });
  }
  const updated = await writeSettled(em, ctx.companyId, r, { receivedAmount: r.receivedAmount.minus(receipt.amount), creditedAmount: r.creditedAmount }, 'reverse-receipt');
  const reversed = (await findReceipt(em, ctx.companyId, receipt.id))!;
  await recordAudit(em, ctx, { entity: RECEIPT_AUDIT, entityId: receipt.id, action: 'REVERSED', changes: { status: ['ACTIVE', 'REVERSED'], reversalReason: [null, reason] } });
  await recordAudit(em, ctx, {
    entity: RECEIVABLE_AUDIT,
    entityId: r.id,
    action: 'RECEIPT_REVERSED',
    changes: { ...settledChanges(r, updated), reversedReceiptId: [null, encodeId('receivable-receipt', receipt.id)] },
  });
  await publishEvent(em, ctx, {
    type: 'receivable.receipt-reversed',
    filialId: r.filialId,
    aggregateType: RECEIVABLE_AUDIT,
    aggregateId: r.id,
    data: { ...receivableData(updated), receipt: { ...receiptData(reversed), reversalReason: reason } },
  });
  return { receivable: updated, receipt: reversed };
}
