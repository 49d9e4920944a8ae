import crypto from 'node:crypto';
import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { isMysql } from '../../core/db/engine';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { Dec, round } from '../../core/decimal';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import { logger } from '../../core/logger';
import { publishEvent } from '../../core/outbox/outbox.service';
import { activePaymentMethod } from '../catalog';
import { lockedReceivableBalance, recordReceipt, reverseReceiptIn } from '../receivables';
import { findBankAccount } from './bank-accounts.service';
import { Boleto } from './entities/boleto.entity';
import type { PixCharge } from './entities/pix-charge.entity';
import type { PixPayment } from './entities/pix-payment.entity';
import { PixPspConnection } from './entities/pix-psp-connection.entity';
import type { PixRefund } from './entities/pix-refund.entity';
import { chargeDetail, ChargeDetail, hashSecret, pspOf, settleChargeAnswer } from './pix-charges.service';
import { pixApplied, pixWebhooks } from './pix-metrics';
import type { PspPix, PspRefund } from './pix-psp';
import { PIX_PAYMENT_AUDIT, PIX_REFUND_AUDIT, paymentAudit, paymentData, refundData } from './pix.events';
import {
  findChargeByTxid,
  findConnection,
  findPaymentByE2e,
  insertPayment,
  lockPayment,
  refundsOfPayments,
  updateChargeIf,
  updatePaymentIf,
  updateRefundIf,
} from './pix.repository';
import { pixChargeMachine } from './pix.state';

/*
 * Pix received (SPEC §14; docs/decisions/collection-pix.md). The PSP's webhook is only a trigger:
 * what it names is read again from the PSP (the charge by its txid, else the Pix by its endToEndId),
 * and each Pix of that answer is applied in a transaction of its own, once — its endToEndId is a
 * unique key of pix_payment, checked under the receivable's lock, so a repeated, late, out-of-order
 * or concurrent callback finds it applied. A Pix becomes a receipt of the receivable its txid
 * charges (receivables' recordReceipt, in the same transaction) unless the receivable is settled or
 * cancelled, its boleto was paid by barcode, or the Pix exceeds what is open: then it is kept for
 * review, never a second receipt. Refunds the PSP reports returned adjust the receipt.
 */

export type ApplyOutcome = 'applied' | 'duplicate' | 'review';

export interface ApplySummary {
  applied: number;
  duplicates: number;
  review: number;
  refundsSettled: number;
}

/** Who acts when the PSP calls: no user, the company of the account. */
const pspContext = (companyId: number, requestId?: string): TenantContext => ({
  companyId,
  actor: 'pix-psp',
  grantedFiliais: '*',
  scopes: [],
  requestId,
});

const dec = (v: string | undefined) => new Dec(v ?? '0');

/**
 * The parts of what a Pix paid: a PSP that reports them (componentesValor) is taken at its word; for
 * a cobv of one that does not (bacen/pix-api #415: "deducible from the charge"), what exceeds the
 * charge's value is the fine (at most its percent, when paid after the due date) and then interest,
 * and what falls short of it a discount. Otherwise all of it settles the receivable.
 */
function partsOf(pix: PspPix, charge: PixCharge | null) {
  const amount = dec(pix.valor);
  const zero = new Dec(0);
  const c = pix.componentesValor;
  if (c?.original) {
    const discount = dec(c.desconto?.valor).plus(dec(c.abatimento?.valor));
    return { amount, original: dec(c.original.valor), interest: dec(c.juros?.valor), fine: dec(c.multa?.valor), discount };
  }
  if (charge?.kind !== 'DUE_DATE' || amount.eq(charge.amount))
    return { amount, original: amount, interest: zero, fine: zero, discount: zero };
  const difference = amount.minus(charge.amount);
  if (difference.lt(0)) return { amount, original: charge.amount, interest: zero, fine: zero, discount: difference.neg() };
  const late = charge.dueDate !== null && businessToday(new Date(pix.horario)) > charge.dueDate;
  const fine = late ? Dec.min(difference, round(charge.amount.times(charge.finePercent).div(100), 'amount')) : zero;
  return { amount, original: charge.amount, interest: difference.minus(fine), fine, discount: zero };
}

async function reviewReasonFor(
  em: EntityManager,
  connection: PixPspConnection,
  charge: PixCharge | null,
  original: Dec,
): Promise<{ reason: string | null; receivableId: number | null }> {
  if (!charge || charge.bankAccountId !== connection.bankAccountId) return { reason: 'UNKNOWN_TXID', receivableId: null };
  const balance = await lockedReceivableBalance(em, connection.companyId, charge.receivableId);
  if (!balance) return { reason: 'UNKNOWN_TXID', receivableId: null };
  const r = balance.receivable;
  if (r.status === 'CANCELLED') return { reason: 'RECEIVABLE_CANCELLED', receivableId: r.id };
  // A bolePix paid by its barcode first: the Pix of the same title is the second payment.
  const paidBoleto = await em.findOne(Boleto, {
    where: { companyId: connection.companyId, receivableId: r.id, status: 'PAID' },
    select: { id: true },
  });
  if (paidBoleto) return { reason: 'BOLETO_PAID', receivableId: r.id };
  if (r.status === 'RECEIVED') return { reason: 'RECEIVABLE_SETTLED', receivableId: r.id };
  if (original.gt(balance.open)) return { reason: 'EXCEEDS_BALANCE', receivableId: r.id };
  try {
    await activePaymentMethod(em, connection.companyId, connection.paymentMethodCode);
  } catch {
    return { reason: 'PAYMENT_METHOD_UNAVAILABLE', receivableId: r.id };
  }
  return { reason: null, receivableId: r.id };
}

/** Applies one Pix read from the PSP: a receipt, a duplicate, or a payment kept for review. */
export async function applyPix(
  connection: PixPspConnection,
  pix: PspPix,
  requestId?: string,
): Promise<{ outcome: ApplyOutcome; refundsSettled: number }> {
  const ctx = pspContext(connection.companyId, requestId);
  const run = () =>
    inTransaction(ctx, async (em) => {
      const charge = pix.txid ? await findChargeByTxid(em, ctx.companyId, pix.txid) : null;
      const parts = partsOf(pix, charge);
      // The receivable's lock first: a second delivery of the same Pix waits here, then finds it below.
      const { reason, receivableId } = await reviewReasonFor(em, connection, charge, parts.original);
      const existing = await findPaymentByE2e(em, ctx.companyId, pix.endToEndId);
      if (existing) return { outcome: 'duplicate' as const, paymentId: existing.id };
      const paidAt = new Date(pix.horario);
      const id = await insertPayment(em, {
        companyId: ctx.companyId,
        filialId: charge?.filialId ?? connection.filialId,
        bankAccountId: connection.bankAccountId,
        endToEndId: pix.endToEndId,
        txid: pix.txid ?? null,
        chargeId: charge?.id ?? null,
        receivableId,
        receiptId: null,
        amount: parts.amount,
        originalAmount: parts.original,
        interest: parts.interest,
        fine: parts.fine,
        discount: parts.discount,
        refundedAmount: new Dec(0),
        paidAt: Number.isNaN(paidAt.getTime()) ? new Date() : paidAt,
        status: reason ? 'REVIEW' : 'APPLIED',
        reviewReason: reason,
        payerInfo: pix.infoPagador?.slice(0, 140) ?? null,
        version: 1,
      });
      let payment = (await findPaymentByE2e(em, ctx.companyId, pix.endToEndId))!;
      if (!reason) {
        const receiptDate = [businessToday(payment.paidAt), businessToday()].sort()[0];
        const { receipt } = await recordReceipt(em, ctx, receivableId!, {
          amount: parts.original,
          receiptDate,
          method: connection.paymentMethodCode,
          interest: parts.interest,
          fine: parts.fine,
          discount: parts.discount,
          note: `Pix ${pix.endToEndId}`,
        });
        await updatePaymentIf(em, ctx.companyId, id, payment.version, { receiptId: receipt.id });
        payment = (await findPaymentByE2e(em, ctx.companyId, pix.endToEndId))!;
        if (charge && charge.kind === 'STATIC' && pixChargeMachine.canDo(charge, 'complete')) {
          pixChargeMachine.assertTransition(charge, 'complete', 'COMPLETED');
          await updateChargeIf(em, ctx.companyId, charge.id, charge, { status: 'COMPLETED' });
        }
      }
      await recordAudit(em, ctx, {
        entity: PIX_PAYMENT_AUDIT,
        entityId: id,
        action: reason ? 'FLAGGED_FOR_REVIEW' : 'APPLIED',
        changes: diff({}, paymentAudit(payment)),
      });
      await publishEvent(em, ctx, {
        type: reason ? 'collection.pix.review' : 'collection.pix.received',
        filialId: payment.filialId,
        aggregateType: 'pix-payment',
        aggregateId: id,
        data: paymentData(payment),
      });
      return { outcome: reason ? ('review' as const) : ('applied' as const), paymentId: id };
    });
  let result: { outcome: ApplyOutcome; paymentId: number };
  try {
    result = await run();
  } catch (err) {
    // Two deliveries raced past the check (an unmatched Pix has no receivable to queue on): the unique key stopped the second.
    if (!isUniqueViolation(err)) throw err;
    result = await run();
  }
  pixApplied.inc({ outcome: result.outcome });
  const refundsSettled = pix.devolucoes?.length ? await settleRefunds(ctx, result.paymentId, pix.devolucoes) : 0;
  return { outcome: result.outcome, refundsSettled };
}

/* ---------------------------------------------------------------- refunds reported by the PSP */

/**
 * A refund's PSP status written on our row: RETURNED adjusts the receipt (reversed, and for a
 * partial refund a receipt of what the payer keeps paid), FAILED records why. Each refund settles
 * once (conditional on REQUESTED); the payment row is locked so two refunds of it do not interleave.
 */
export async function settleRefunds(ctx: TenantContext, paymentId: number, reported: PspRefund[]): Promise<number> {
  let settled = 0;
  for (const r of reported) {
    if (r.status === 'EM_PROCESSAMENTO') continue;
    const done = await inTransaction(ctx, async (em) => {
      const payment = await lockPayment(em, ctx.companyId, paymentId, isMysql);
      if (!payment) return false;
      const ours = (await refundsOfPayments(em, ctx.companyId, [paymentId])).find((x) => x.refundId === r.id);
      if (!ours || ours.status !== 'REQUESTED') return false;
      if (r.status === 'NAO_REALIZADO') {
        if (
          !(await updateRefundIf(em, ctx.companyId, ours.id, ours, {
            status: 'FAILED',
            rtrId: r.rtrId ?? ours.rtrId,
            failureReason: (r.motivo ?? 'NAO_REALIZADO').slice(0, 255),
          }))
        )
          return false;
        await recordAudit(em, ctx, {
          entity: PIX_REFUND_AUDIT,
          entityId: ours.id,
          action: 'FAILED',
          changes: { status: ['REQUESTED', 'FAILED'], failureReason: [null, r.motivo ?? 'NAO_REALIZADO'] },
        });
        await publishEvent(em, ctx, {
          type: 'collection.pix.refund-failed',
          filialId: payment.filialId,
          aggregateType: 'pix-payment',
          aggregateId: payment.id,
          data: { ...refundData({ ...ours, status: 'FAILED' }), reason: r.motivo ?? null },
        });
        return true;
      }
      if (
        !(await updateRefundIf(em, ctx.companyId, ours.id, ours, {
          status: 'RETURNED',
          rtrId: r.rtrId ?? ours.rtrId,
          returnedAt: r.horario?.liquidacao ? new Date(r.horario.liquidacao) : new Date(),
        }))
      )
        return false;
      await adjustForRefund(em, ctx, payment, ours);
      return true;
    });
    if (done) settled++;
  }
  return settled;
}

/** The refund reduces interest first, then the fine, then what settled the receivable; the receipt is replaced by one of what stays. */
async function adjustForRefund(em: EntityManager, ctx: TenantContext, payment: PixPayment, refund: PixRefund): Promise<void> {
  const refunded = payment.refundedAmount.plus(refund.amount);
  const status = refunded.gte(payment.amount) ? 'REFUNDED' : payment.status;
  let receiptId = payment.receiptId;
  if (payment.status === 'APPLIED' && payment.receiptId && payment.receivableId) {
    let left = refunded;
    const interest = Dec.max(0, payment.interest.minus(left));
    left = Dec.max(0, left.minus(payment.interest));
    const fine = Dec.max(0, payment.fine.minus(left));
    left = Dec.max(0, left.minus(payment.fine));
    const original = Dec.max(0, payment.originalAmount.minus(left));
    const reversed = await reverseReceiptIn(
      em,
      ctx,
      payment.receiptId,
      `Pix ${payment.endToEndId} devolvido (${refund.rtrId ?? refund.refundId})`,
    );
    receiptId = null;
    if (reversed && original.gt(0) && original.minus(payment.discount).plus(interest).plus(fine).gt(0)) {
      const { receipt } = await recordReceipt(em, ctx, payment.receivableId, {
        amount: original,
        receiptDate: [businessToday(payment.paidAt), businessToday()].sort()[0],
        method: (await findConnection(em, ctx.companyId, payment.bankAccountId))?.paymentMethodCode ?? 'PIX',
        interest,
        fine,
        discount: payment.discount.gt(original) ? original : payment.discount,
        note: `Pix ${payment.endToEndId}, após devolução de ${refunded.toFixed(2)}`,
      });
      receiptId = receipt.id;
    }
  }
  await updatePaymentIf(em, ctx.companyId, payment.id, payment.version, { refundedAmount: refunded, status, receiptId });
  const after = (await lockPayment(em, ctx.companyId, payment.id, false))!;
  await recordAudit(em, ctx, {
    entity: PIX_PAYMENT_AUDIT,
    entityId: payment.id,
    action: 'REFUNDED',
    changes: diff(paymentAudit(payment), paymentAudit(after)),
  });
  await recordAudit(em, ctx, {
    entity: PIX_REFUND_AUDIT,
    entityId: refund.id,
    action: 'RETURNED',
    changes: { status: ['REQUESTED', 'RETURNED'] },
  });
  await publishEvent(em, ctx, {
    type: 'collection.pix.refunded',
    filialId: payment.filialId,
    aggregateType: 'pix-payment',
    aggregateId: payment.id,
    data: { ...paymentData(after), refund: refundData({ ...refund, status: 'RETURNED' }) },
  });
}

/* ---------------------------------------------------------------- triggers: webhook and re-read */

/** Everything of a charge the PSP holds now: its status, and each Pix of its `pix[]` applied once. */
async function rereadCharge(connection: PixPspConnection, charge: PixCharge, requestId?: string): Promise<ApplySummary> {
  const summary: ApplySummary = { applied: 0, duplicates: 0, review: 0, refundsSettled: 0 };
  const psp = pspOf(connection);
  let pixes: PspPix[];
  if (charge.kind === 'STATIC') {
    // A static code has no charge at the PSP: its Pix are found by txid, from the day it was made.
    pixes = await psp.listPix({
      inicio: new Date(charge.createdAt.getTime() - 60_000).toISOString(),
      fim: new Date(Date.now() + 60_000).toISOString(),
      txid: charge.txid,
    });
  } else {
    const cob = await psp.getCharge(charge.kind === 'IMMEDIATE' ? 'cob' : 'cobv', charge.txid);
    await settleChargeAnswer(pspContext(connection.companyId, requestId), charge.id, cob);
    pixes = cob.pix ?? [];
  }
  for (const pix of pixes) add(summary, await applyPix(connection, pix, requestId));
  return summary;
}

function add(summary: ApplySummary, r: { outcome: ApplyOutcome; refundsSettled: number }) {
  if (r.outcome === 'applied') summary.applied++;
  else if (r.outcome === 'duplicate') summary.duplicates++;
  else summary.review++;
  summary.refundsSettled += r.refundsSettled;
}

/** The webhook's shared secret, compared in constant time with the stored hash. */
function secretMatches(connection: PixPspConnection, secret: string | undefined): boolean {
  if (!secret) return false;
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(connection.webhookSecretHash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export interface WebhookNotice {
  endToEndId: string;
  txid?: string;
}

/**
 * A PSP callback for a bank account: verified by its shared secret, then only a trigger — each
 * charge it names (by txid) is read again with all its Pix, each other Pix by its endToEndId.
 * Nothing of the callback's body is applied as such.
 */
export async function receiveWebhook(
  companyAndAccount: { bankAccountId: number },
  secret: string | undefined,
  notices: WebhookNotice[],
  requestId?: string,
): Promise<ApplySummary> {
  const connection = await connectionByAccount(companyAndAccount.bankAccountId);
  if (!connection || !secretMatches(connection, secret)) {
    pixWebhooks.inc({ outcome: 'refused' });
    // The same answer for an unknown account and a wrong secret: nothing to learn by probing.
    throw new ForbiddenError('The webhook secret does not match this account', 'PIX_WEBHOOK_SECRET_MISMATCH');
  }
  pixWebhooks.inc({ outcome: 'accepted' });
  const summary: ApplySummary = { applied: 0, duplicates: 0, review: 0, refundsSettled: 0 };
  const seenTxids = new Set<string>();
  const psp = pspOf(connection);
  for (const n of notices) {
    const charge = n.txid ? await findChargeByTxid(readerOf(NO_UNIT), connection.companyId, n.txid) : null;
    if (charge && charge.bankAccountId === connection.bankAccountId && charge.kind !== 'STATIC') {
      if (seenTxids.has(charge.txid)) continue;
      seenTxids.add(charge.txid);
      const s = await rereadCharge(connection, charge, requestId);
      summary.applied += s.applied;
      summary.duplicates += s.duplicates;
      summary.review += s.review;
      summary.refundsSettled += s.refundsSettled;
      continue;
    }
    add(summary, await applyPix(connection, await psp.getPix(n.endToEndId), requestId));
  }
  logger.info('pix webhook', { bankAccountId: connection.bankAccountId, notices: notices.length, ...summary });
  return summary;
}

/** The connection of a bank account, read without a tenant (the webhook's path names the account; its secret proves the caller). */
async function connectionByAccount(bankAccountId: number): Promise<PixPspConnection | null> {
  // Bank-account ids are unique across companies; the connection found names its company, and every read after it filters by that.
  return readerOf(NO_UNIT).findOneBy(PixPspConnection, { bankAccountId });
}

/** A charge read again from the PSP by hand (the same path as a webhook). */
export async function syncCharge(ctx: TenantContext, chargeId: number): Promise<{ detail: ChargeDetail; summary: ApplySummary }> {
  const { charge } = await chargeDetail(ctx, chargeId);
  const connection = await findConnection(readerOf(ctx), ctx.companyId, charge.bankAccountId);
  if (!connection) throw new NotFoundError('Pix PSP connection', 'PIX_PSP_NOT_CONFIGURED');
  if (!(await findBankAccount(readerOf(ctx), ctx.companyId, charge.bankAccountId))) throw new NotFoundError('Bank account');
  const summary = await rereadCharge(connection, charge, ctx.requestId);
  return { detail: await chargeDetail(ctx, chargeId), summary };
}
