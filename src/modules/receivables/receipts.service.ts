import { EntityManager } from 'typeorm';
import type { Changes } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { NotFoundError, ValidationError } from '../../core/errors';
import { SettlementInput } from '../../core/settlement';
import { findSettlementOf, reverseIn, settleIn, writeOpenItem } from '../open-items';
import type { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable } from './entities/receivable.entity';
import { findReceivable, receiptsOf } from './receivables.repository';
import { openAmountOf } from './receivables.rules';
import { RECEIVABLE_SIDE } from './receivables.side';
import type { ReceivableAction } from './receivables.state';

/*
 * Receipts of receivables (SPEC §13), as payments of payables: both through the open-items kernel
 * (RECEIVABLE_SIDE; the arithmetic is core/settlement.ts). A receipt settles `amount` of what is open
 * (never more); received amount and status follow the receipts that stand. Receipts, reversals and
 * return credits of one receivable queue on its row (locked on MySQL, serialized on SQLite), so two
 * receipts of its last balance cannot both pass; the fiscal document's cancellation, which refuses a
 * receivable with receipts under the same lock, cannot slip past one either.
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

/** A receivable of the caller's company (else 404) in a filial the token grants (else 403). */
export async function findAccessibleReceivable(ctx: TenantContext, id: number): Promise<Receivable> {
  const r = await findReceivable(readerOf(ctx), ctx.companyId, id);
  if (!r) throw new NotFoundError('Receivable');
  await assertFilialAccess(ctx, r.filialId);
  return r;
}

export async function getReceivableDetail(
  ctx: TenantContext,
  id: number,
): Promise<{ receivable: Receivable; receipts: ReceivableReceipt[] }> {
  const receivable = await findAccessibleReceivable(ctx, id);
  return { receivable, receipts: await receiptsOf(readerOf(ctx), ctx.companyId, [id]) };
}

/** Writes what is received and credited (and its status) conditionally on the status and version read under the lock. */
export const writeSettled = (
  em: EntityManager,
  companyId: number,
  before: Receivable,
  values: { receivedAmount: Dec; creditedAmount: Dec },
  action: ReceivableAction,
): Promise<Receivable> =>
  writeOpenItem(em, companyId, RECEIVABLE_SIDE, before, { settled: values.receivedAmount, credited: values.creditedAmount }, action);

export const settledChanges = (before: Receivable, after: Receivable): Changes => RECEIVABLE_SIDE.itemChanges(before, after);

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
export async function lockedReceivableBalance(
  em: EntityManager,
  companyId: number,
  receivableId: number,
): Promise<{ receivable: Receivable; open: Dec } | null> {
  const r = await findReceivable(em, companyId, receivableId, true);
  return r ? { receivable: r, open: openAmountOf(r) } : null;
}

/**
 * The core of a receipt, inside the caller's transaction `em` (the caller checked the filial): the
 * kernel locks the receivable, refuses more than what is open (422 RECEIPT_EXCEEDS_BALANCE) or a
 * settled/cancelled one (409), writes the receipt, the receivable's received amount and status, audit
 * and the event; the receipt's own columns are the bank's fee and the credit date.
 */
export async function recordReceipt(
  em: EntityManager,
  ctx: TenantContext,
  receivableId: number,
  input: RecordReceiptInput,
): Promise<{ receivable: Receivable; receipt: ReceivableReceipt }> {
  const { item, settlement } = await settleIn(em, ctx, RECEIVABLE_SIDE, receivableId, { ...input, date: input.receiptDate }, () => {
    const bankFee = input.bankFee ?? new Dec(0);
    if (bankFee.lt(0)) throw new ValidationError('Invalid request', [{ path: 'bankFee', message: 'bankFee cannot be negative' }]);
    return { bankFee, creditDate: input.creditDate ?? null };
  });
  return { receivable: item, receipt: settlement };
}

export async function reverseReceipt(ctx: TenantContext, receiptId: number, reason: string): Promise<ReceiptOutcome> {
  const found = await findSettlementOf(readerOf(ctx), ctx.companyId, RECEIVABLE_SIDE, receiptId);
  await assertFilialAccess(ctx, found.filialId);
  const { receivable, receipt } = await inTransaction(ctx, (em) => reverseReceiptIn(em, ctx, receiptId, reason));
  return { receivable, receipt, receipts: await receiptsOf(readerOf(ctx), ctx.companyId, [receivable.id]) };
}

/**
 * The core of a reversal, inside the caller's transaction `em` (the caller checked the filial;
 * collection: a Pix refunded through the PSP): the kernel locks the receivable, refuses a receipt
 * already reversed (409 RECEIPT_ALREADY_REVERSED), writes the reversal, the receivable's received
 * amount and status, audit and the event.
 */
export async function reverseReceiptIn(
  em: EntityManager,
  ctx: TenantContext,
  receiptId: number,
  reason: string,
): Promise<{ receivable: Receivable; receipt: ReceivableReceipt }> {
  const { item, settlement } = await reverseIn(em, ctx, RECEIVABLE_SIDE, receiptId, reason);
  return { receivable: item, receipt: settlement };
}
