import { diff, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, sum, toFixed, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StateConflictError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertFilialAccess } from '../tenancy';
import type { PixPayment } from './entities/pix-payment.entity';
import type { PixRefund } from './entities/pix-refund.entity';
import { newTxid, pspOf } from './pix-charges.service';
import { PspError, PspRefund } from './pix-psp';
import { settleRefunds } from './pix-receive.service';
import { PIX_REFUND_AUDIT, refundData } from './pix.events';
import { PixPayment as PixPaymentEntity } from './entities/pix-payment.entity';
import type { PixPaymentStatus } from './entities/pix-payment.entity';
import { In } from 'typeorm';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { findConnection, findPayment, findRefund, insertRefund, lockPayment, refundsOfPayments, updateRefundIf } from './pix.repository';

/*
 * Devoluções (SPEC §14): a refund of a Pix received goes to the PSP (`PUT /pix/{e2eid}/devolucao/{id}`)
 * after its row (REQUESTED, with the id the PSP is given) commits; the PSP's answer — or a later
 * webhook or re-read — settles it: RETURNED reverses the Pix's receipt (and records one of what
 * stays, for a partial refund), FAILED keeps the receipt. What is refunded, requested ones included,
 * never exceeds what the Pix paid.
 */

export interface RefundInput {
  amount?: Dec | null;
  reason: string;
}

export interface PaymentDetail {
  payment: PixPayment;
  refunds: PixRefund[];
}

const money = (d: Dec) => toJsonNumber(d, 'amount');

export async function paymentDetail(ctx: TenantContext, paymentId: number): Promise<PaymentDetail> {
  const reader = readerOf(ctx);
  const payment = await findPayment(reader, ctx.companyId, paymentId);
  if (!payment) throw new NotFoundError('Pix payment');
  await assertFilialAccess(ctx, payment.filialId, reader);
  return { payment, refunds: await refundsOfPayments(reader, ctx.companyId, [paymentId]) };
}

export async function requestRefund(
  ctx: TenantContext,
  paymentId: number,
  input: RefundInput,
): Promise<PaymentDetail & { refund: PixRefund }> {
  const { payment } = await paymentDetail(ctx, paymentId);
  const connection = await findConnection(readerOf(ctx), ctx.companyId, payment.bankAccountId);
  if (!connection) throw new BusinessRuleError('PIX_PSP_NOT_CONFIGURED', 'The bank account has no PSP connection');
  const refundId = newTxid(32);
  const reason = input.reason.trim();
  const id = await inTransaction(ctx, async (em) => {
    const p = (await lockPayment(em, ctx.companyId, paymentId, isMysql))!;
    if (p.status === 'REFUNDED') throw new StateConflictError('Pix payment', p.status, 'refund it', 'PIX_PAYMENT_REFUNDED');
    const standing = (await refundsOfPayments(em, ctx.companyId, [paymentId])).filter((r) => r.status !== 'FAILED');
    const available = p.amount.minus(sum(standing.map((r) => r.amount)));
    const amount = input.amount ?? available;
    if (amount.lte(0) || amount.gt(available)) {
      throw new BusinessRuleError(
        'PIX_REFUND_EXCEEDS_PAYMENT',
        `A refund of ${toFixed(amount, 'amount')} exceeds the ${toFixed(available, 'amount')} of the Pix not yet refunded`,
        {
          available: money(available),
          amount: money(amount),
        },
      );
    }
    const id = await insertRefund(em, {
      companyId: ctx.companyId,
      paymentId,
      refundId,
      rtrId: null,
      amount,
      status: 'REQUESTED',
      reason,
      failureReason: null,
      returnedAt: null,
      createdBy: ctx.actor,
      version: 1,
    });
    const refund = (await findRefund(em, ctx.companyId, id))!;
    await recordAudit(em, ctx, { entity: PIX_REFUND_AUDIT, entityId: id, action: 'CREATED', changes: diff({}, refundData(refund)) });
    await publishEvent(em, ctx, {
      type: 'collection.pix.refund-requested',
      filialId: p.filialId,
      aggregateType: 'pix-payment',
      aggregateId: p.id,
      data: refundData(refund),
    });
    return id;
  });
  const refund = (await findRefund(readerOf(ctx), ctx.companyId, id))!;
  let answer: PspRefund;
  try {
    answer = await pspOf(connection).requestRefund(payment.endToEndId, refundId, {
      valor: refund.amount.toFixed(2),
      descricao: reason.slice(0, 140),
    });
  } catch (err) {
    // Refused by the PSP: the refund failed, nothing left the account. No answer: it stays REQUESTED, a re-read settles it.
    if (err instanceof PspError && err.code === 'PSP_REJECTED')
      await settleRefunds(ctx, paymentId, [
        {
          id: refundId,
          rtrId: '',
          valor: refund.amount.toFixed(2),
          horario: { solicitacao: new Date().toISOString() },
          status: 'NAO_REALIZADO',
          motivo: err.message.slice(0, 255),
        },
      ]);
    throw err;
  }
  await inTransaction(ctx, async (em) => {
    const r = (await findRefund(em, ctx.companyId, id))!;
    if (r.status === 'REQUESTED' && answer.rtrId && !r.rtrId) await updateRefundIf(em, ctx.companyId, id, r, { rtrId: answer.rtrId });
  });
  await settleRefunds(ctx, paymentId, [answer]);
  const detail = await paymentDetail(ctx, paymentId);
  return { ...detail, refund: detail.refunds.find((r) => r.id === id)! };
}

export interface PaymentListQuery extends PageRequest {
  status?: PixPaymentStatus;
  reviewReason?: string;
}

/** A filial's Pix received, newest first (the ones kept for review: status=REVIEW), each with its refunds. */
export async function listPayments(ctx: TenantContext, filialId: number, query: PaymentListQuery): Promise<Page<PaymentDetail>> {
  const em = readerOf(ctx);
  const qb = em
    .createQueryBuilder(PixPaymentEntity, 'p')
    .where('p.company_id = :companyId AND p.filial_id = :filialId', { companyId: ctx.companyId, filialId });
  if (query.status) qb.andWhere('p.status = :status', { status: query.status });
  if (query.reviewReason) qb.andWhere('p.review_reason = :reason', { reason: query.reviewReason });
  return paginate(
    qb,
    [{ column: 'p.id', direction: 'DESC' }],
    query,
    async (ids) => {
      const [payments, refunds] = await Promise.all([
        em.find(PixPaymentEntity, { where: { companyId: ctx.companyId, id: In(ids) } }),
        refundsOfPayments(em, ctx.companyId, ids),
      ]);
      return payments.map((payment) => ({ payment, refunds: refunds.filter((r) => r.paymentId === payment.id) }));
    },
    (d) => d.payment.id,
  );
}
