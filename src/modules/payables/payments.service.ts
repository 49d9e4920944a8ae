import { AuditEntryDto, auditTrail } from '../../core/audit/audit-trail';
import type { Page, PageRequest } from '../../core/pagination';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { findSettlementOf, reverseIn, settledStatus, settleIn, settlementsOf } from '../open-items';
import { PayablePayment } from './entities/payable-payment.entity';
import { Payable, PayableStatus } from './entities/payable.entity';
import { findPayable } from './payables.repository';
import { PAYABLE_AUDIT, PAYABLE_SIDE } from './payables.side';

/*
 * Payments of payables (SPEC §3), through the open-items kernel (PAYABLE_SIDE; the arithmetic is
 * core/settlement.ts). A payment settles `amount` of what is owed (never more than the open balance);
 * interest and fine are paid on top, a discount is granted off. Paid amount and status follow the
 * payments that stand: OPEN (nothing), PARTIALLY_PAID, PAID (all). Payments and reversals of one
 * payable queue on the payable's row, so two payments of its last balance cannot both pass; the entry
 * document's cancellation, which cancels only OPEN payables with a conditional UPDATE, cannot slip past
 * a payment either.
 */

export { PAYABLE_AUDIT, PAYMENT_AUDIT } from './payables.side';

export interface PaymentInput {
  amount: Dec;
  paymentDate: string;
  /** The tenant's payment-method code. */
  method: string;
  interest?: Dec | null;
  fine?: Dec | null;
  discount?: Dec | null;
  note?: string | null;
}

/** The status that `paidAmount` of `amount` means. */
export const statusFor = (amount: Dec, paidAmount: Dec): PayableStatus =>
  settledStatus(PAYABLE_SIDE.statuses, amount, paidAmount, new Dec(0));

/** A payable of the caller's company (else 404) in a filial the token grants (else 403). */
export async function findAccessiblePayable(ctx: TenantContext, id: number): Promise<Payable> {
  const payable = await findPayable(readerOf(ctx), ctx.companyId, id);
  if (!payable) throw new NotFoundError('Payable');
  await assertFilialAccess(ctx, payable.filialId);
  return payable;
}

/** GET /entry-document/contas-pagar/audit/:id — the payable's trail (its payments' own rows are under PAYMENT_REGISTERED/REVERSED). */
export async function payableAuditTrail(ctx: TenantContext, id: number, page: PageRequest): Promise<Page<AuditEntryDto>> {
  const payable = await findAccessiblePayable(ctx, id);
  return auditTrail(ctx.companyId, PAYABLE_AUDIT, payable.id, page);
}

const paymentsOf = (ctx: TenantContext, payableId: number) =>
  settlementsOf(readerOf(ctx), PayablePayment, 'payableId', ctx.companyId, [payableId]);

export async function getPayableDetail(ctx: TenantContext, id: number): Promise<{ payable: Payable; payments: PayablePayment[] }> {
  const payable = await findAccessiblePayable(ctx, id);
  return { payable, payments: await paymentsOf(ctx, id) };
}

/** A payment or reversal: the payment, the payable after it, and all the payable's payments. */
export interface PaymentOutcome {
  payable: Payable;
  payment: PayablePayment;
  payments: PayablePayment[];
}

export async function registerPayment(ctx: TenantContext, payableId: number, input: PaymentInput): Promise<PaymentOutcome> {
  await findAccessiblePayable(ctx, payableId);
  const { item: payable, settlement: payment } = await inTransaction(ctx, (em) =>
    settleIn(em, ctx, PAYABLE_SIDE, payableId, { ...input, date: input.paymentDate }),
  );
  // The payable's payments as committed, for the response (read after the transaction).
  return { payable, payment, payments: await paymentsOf(ctx, payable.id) };
}

export async function reversePayment(ctx: TenantContext, paymentId: number, reason: string): Promise<PaymentOutcome> {
  const found = await findSettlementOf(readerOf(ctx), ctx.companyId, PAYABLE_SIDE, paymentId);
  await assertFilialAccess(ctx, found.filialId);
  const { item: payable, settlement: payment } = await inTransaction(ctx, (em) => reverseIn(em, ctx, PAYABLE_SIDE, paymentId, reason));
  // The payable's payments as committed, for the response (read after the transaction).
  return { payable, payment, payments: await paymentsOf(ctx, payable.id) };
}
