import { EntityManager } from 'typeorm';
import { Changes, diff, recordAudit } from '../../core/audit/audit.service';
import { AuditEntryDto, auditTrail } from '../../core/audit/audit-trail';
import type { Page, PageRequest } from '../../core/pagination';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, toFixed } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, StateConflictError } from '../../core/errors';
import { assertAllowed, assertTransition, PayableAction } from './payables.state';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { activePaymentMethod } from '../catalog';
import { settlementAmounts } from '../../core/settlement';
import { PayablePayment } from './entities/payable-payment.entity';
import { Payable, PayableStatus } from './entities/payable.entity';
import { findPayable, findPayment, insertPayment, paymentsOfPayable, reversePaymentIf, updatePayableIf } from './payables.repository';

/*
 * Payments of payables (SPEC §3). A payment settles `amount` of what is owed (never more than the
 * open balance); interest and fine are paid on top, a discount is granted off. Paid amount and
 * status follow the payments that stand: OPEN (nothing), PARTIALLY_PAID, PAID (all). Payments and
 * reversals of one payable queue on the payable's row, so two payments of its last balance cannot
 * both pass; the entry document's cancellation, which cancels only OPEN payables with a conditional
 * UPDATE, cannot slip past a payment either.
 */

export const PAYABLE_AUDIT = 'payable';
export const PAYMENT_AUDIT = 'payable-payment';

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
export function statusFor(amount: Dec, paidAmount: Dec): PayableStatus {
  if (paidAmount.lte(0)) return 'OPEN';
  return paidAmount.gte(amount) ? 'PAID' : 'PARTIALLY_PAID';
}

const money = (d: Dec) => Number(toFixed(d, 'amount'));

const paymentData = (p: PayablePayment) => ({
  id: encodeId('payable-payment', p.id),
  paymentDate: p.paymentDate,
  method: p.paymentMethodCode,
  amount: money(p.amount),
  interest: money(p.interest),
  fine: money(p.fine),
  discount: money(p.discount),
  total: money(p.total),
});

/** The event payload of a payable (hashids only). */
const payableData = (p: Payable) => ({
  id: encodeId('payable', p.id),
  filialId: encodeId('filial', p.filialId),
  entryDocumentId: encodeOptionalId('entry-document', p.entryDocumentId),
  source: p.sourceType,
  cteId: encodeOptionalId('cte', p.cteId),
  supplierDocument: p.supplierDocument,
  installmentNumber: p.installmentNumber,
  dueDate: p.dueDate,
  amount: money(p.amount),
  paidAmount: money(p.paidAmount),
  openAmount: money(p.amount.minus(p.paidAmount)),
  status: p.status,
});

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

export async function getPayableDetail(ctx: TenantContext, id: number): Promise<{ payable: Payable; payments: PayablePayment[] }> {
  const payable = await findAccessiblePayable(ctx, id);
  return { payable, payments: await paymentsOfPayable(readerOf(ctx), ctx.companyId, id) };
}

/** The locked payable of the transaction; its status decides whether it takes payments. */
async function lockedPayable(em: EntityManager, ctx: TenantContext, id: number): Promise<Payable> {
  const payable = await findPayable(em, ctx.companyId, id, true);
  if (!payable) throw new NotFoundError('Payable');
  return payable;
}

async function writePayable(em: EntityManager, ctx: TenantContext, before: Payable, paidAmount: Dec, action: PayableAction): Promise<Payable> {
  const status = statusFor(before.amount, paidAmount);
  assertTransition(before, action, status);
  if (!(await updatePayableIf(em, ctx.companyId, before.id, { status: before.status, version: before.version }, { paidAmount, status }))) {
    // Unreachable while the row is locked; kept so a change of locking cannot go unnoticed.
    throw new ConflictError('CONCURRENT_UPDATE', 'The payable changed meanwhile; retry', { retryable: true });
  }
  return (await findPayable(em, ctx.companyId, before.id))!;
}

const payableChanges = (before: Payable, after: Payable): Changes =>
  diff({ paidAmount: toFixed(before.paidAmount, 'amount'), status: before.status }, { paidAmount: toFixed(after.paidAmount, 'amount'), status: after.status });

/** A payment or reversal: the payment, the payable after it, and all the payable's payments. */
export interface PaymentOutcome {
  payable: Payable;
  payment: PayablePayment;
  payments: PayablePayment[];
}

export async function registerPayment(ctx: TenantContext, payableId: number, input: PaymentInput): Promise<PaymentOutcome> {
  await findAccessiblePayable(ctx, payableId);
  const { interest, fine, discount, total } = settlementAmounts(input, { field: 'paymentDate', value: input.paymentDate, futureCode: 'PAYMENT_DATE_IN_FUTURE' });
  const { payable, payment } = await inTransaction(ctx, async (em) => {
    const method = await activePaymentMethod(em, ctx.companyId, input.method);
    const payable = await lockedPayable(em, ctx, payableId);
    assertAllowed(payable, 'pay');
    const open = payable.amount.minus(payable.paidAmount);
    if (input.amount.gt(open)) {
      throw new BusinessRuleError('PAYMENT_EXCEEDS_BALANCE', `The payment of ${toFixed(input.amount, 'amount')} exceeds the open balance of ${toFixed(open, 'amount')}`, {
        openAmount: money(open),
        amount: money(input.amount),
      });
    }
    const id = await insertPayment(em, {
      companyId: ctx.companyId,
      filialId: payable.filialId,
      payableId: payable.id,
      status: 'ACTIVE',
      paymentDate: input.paymentDate,
      paymentMethodId: method.id,
      paymentMethodCode: method.code,
      amount: input.amount,
      interest,
      fine,
      discount,
      total,
      note: input.note?.trim() || null,
      createdBy: ctx.actor,
      reversedAt: null,
      reversedBy: null,
      reversalReason: null,
      version: 1,
    });
    const updated = await writePayable(em, ctx, payable, payable.paidAmount.plus(input.amount), 'pay');
    const payment = (await findPayment(em, ctx.companyId, id))!;
    const paymentHash = encodeId('payable-payment', id);
    await recordAudit(em, ctx, {
      entity: PAYMENT_AUDIT,
      entityId: id,
      action: 'CREATED',
      changes: diff({}, { payableId: encodeId('payable', payable.id), ...paymentData(payment), note: payment.note }),
    });
    await recordAudit(em, ctx, { entity: PAYABLE_AUDIT, entityId: payable.id, action: 'PAYMENT_REGISTERED', changes: { ...payableChanges(payable, updated), paymentId: [null, paymentHash] } });
    await publishEvent(em, ctx, {
      type: updated.status === 'PAID' ? 'payable.paid' : 'payable.partially-paid',
      filialId: payable.filialId,
      aggregateType: PAYABLE_AUDIT,
      aggregateId: payable.id,
      data: { ...payableData(updated), payment: paymentData(payment) },
    });
    return { payable: updated, payment };
  });
  // The payable's payments as committed, for the response (read after the transaction).
  return { payable, payment, payments: await paymentsOfPayable(readerOf(ctx), ctx.companyId, payable.id) };
}

export async function reversePayment(ctx: TenantContext, paymentId: number, reason: string): Promise<PaymentOutcome> {
  const found = await findPayment(readerOf(ctx), ctx.companyId, paymentId);
  if (!found) throw new NotFoundError('Payment', 'PAYMENT_NOT_FOUND');
  await assertFilialAccess(ctx, found.filialId);
  const { payable, payment } = await inTransaction(ctx, async (em) => {
    const payable = await lockedPayable(em, ctx, found.payableId);
    const payment = (await findPayment(em, ctx.companyId, paymentId))!;
    if (payment.status !== 'ACTIVE') throw new StateConflictError('Payment', payment.status, 'reverse', 'PAYMENT_ALREADY_REVERSED');
    assertAllowed(payable, 'reverse-payment');
    const reversedAt = new Date();
    if (!(await reversePaymentIf(em, ctx.companyId, payment.id, payment.version, { reversedAt, reversedBy: ctx.actor, reversalReason: reason }))) {
      throw new ConflictError('CONCURRENT_UPDATE', 'The payment changed meanwhile; retry', { retryable: true });
    }
    const updated = await writePayable(em, ctx, payable, payable.paidAmount.minus(payment.amount), 'reverse-payment');
    const reversed = (await findPayment(em, ctx.companyId, payment.id))!;
    await recordAudit(em, ctx, { entity: PAYMENT_AUDIT, entityId: payment.id, action: 'REVERSED', changes: { status: ['ACTIVE', 'REVERSED'], reversalReason: [null, reason] } });
    await recordAudit(em, ctx, {
      entity: PAYABLE_AUDIT,
      entityId: payable.id,
      action: 'PAYMENT_REVERSED',
      changes: { ...payableChanges(payable, updated), reversedPaymentId: [null, encodeId('payable-payment', payment.id)] },
    });
    await publishEvent(em, ctx, {
      type: 'payable.payment-reversed',
      filialId: payable.filialId,
      aggregateType: PAYABLE_AUDIT,
      aggregateId: payable.id,
      data: { ...payableData(updated), payment: { ...paymentData(reversed), reversalReason: reason } },
    });
    return { payable: updated, payment: reversed };
  });
  // The payable's payments as committed, for the response (read after the transaction).
  return { payable, payment, payments: await paymentsOfPayable(readerOf(ctx), ctx.companyId, payable.id) };
}
