import { toFixed, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { PixCharge } from './entities/pix-charge.entity';
import type { PixPayment } from './entities/pix-payment.entity';
import type { PixRefund } from './entities/pix-refund.entity';

/* Event payloads (`collection.pix.*`) and audit snapshots of Pix collection: hashids only, amounts as JSON numbers. */

export const PIX_CHARGE_AUDIT = 'pix-charge';
export const PIX_PAYMENT_AUDIT = 'pix-payment';
export const PIX_REFUND_AUDIT = 'pix-refund';
export const PIX_CONNECTION_AUDIT = 'pix-psp-connection';

const money = (d: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(d, 'amount');

export const chargeData = (c: PixCharge) => ({
  chargeId: encodeId('pix-charge', c.id),
  receivableId: encodeId('receivable', c.receivableId),
  bankAccountId: encodeId('bank-account', c.bankAccountId),
  kind: c.kind,
  txid: c.txid,
  status: c.status,
  amount: money(c.amount),
  dueDate: c.dueDate,
});

export const paymentData = (p: PixPayment) => ({
  paymentId: encodeId('pix-payment', p.id),
  endToEndId: p.endToEndId,
  txid: p.txid,
  chargeId: encodeOptionalId('pix-charge', p.chargeId),
  receivableId: encodeOptionalId('receivable', p.receivableId),
  receiptId: encodeOptionalId('receivable-receipt', p.receiptId),
  status: p.status,
  reviewReason: p.reviewReason,
  amount: money(p.amount),
  originalAmount: money(p.originalAmount),
  interest: money(p.interest),
  fine: money(p.fine),
  discount: money(p.discount),
  refundedAmount: money(p.refundedAmount),
  paidAt: p.paidAt.toISOString(),
});

export const refundData = (r: PixRefund) => ({
  refundId: encodeId('pix-refund', r.id),
  paymentId: encodeId('pix-payment', r.paymentId),
  pspRefundId: r.refundId,
  rtrId: r.rtrId,
  status: r.status,
  amount: money(r.amount),
  reason: r.reason,
});

/** Audit snapshot of a payment (decimals as fixed strings). */
export const paymentAudit = (p: PixPayment) => ({
  endToEndId: p.endToEndId,
  txid: p.txid,
  status: p.status,
  reviewReason: p.reviewReason,
  amount: toFixed(p.amount, 'amount'),
  receiptId: encodeOptionalId('receivable-receipt', p.receiptId),
  refundedAmount: toFixed(p.refundedAmount, 'amount'),
});
