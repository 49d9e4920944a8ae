import { toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { BankAccount } from './entities/bank-account.entity';
import type { PixCharge } from './entities/pix-charge.entity';
import type { PixPayment } from './entities/pix-payment.entity';
import type { PixPspConnection } from './entities/pix-psp-connection.entity';
import type { PixRefund } from './entities/pix-refund.entity';
import type { ChargeDetail } from './pix-charges.service';
import type { ApplySummary } from './pix-receive.service';

/* Pix collection entities → response DTOs (pix.responses.ts); controllers only. */

const amount = (d: PixCharge['amount']) => toJsonNumber(d, 'amount');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toRefundDto = (r: PixRefund) => ({
  id: encodeId('pix-refund', r.id),
  paymentId: encodeId('pix-payment', r.paymentId),
  pspRefundId: r.refundId,
  rtrId: r.rtrId,
  amount: amount(r.amount),
  status: r.status,
  reason: r.reason,
  failureReason: r.failureReason,
  returnedAt: iso(r.returnedAt),
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

export const toPaymentDto = (p: PixPayment, refunds: PixRefund[]) => ({
  id: encodeId('pix-payment', p.id),
  filialId: encodeId('filial', p.filialId),
  bankAccountId: encodeId('bank-account', p.bankAccountId),
  endToEndId: p.endToEndId,
  txid: p.txid,
  chargeId: encodeOptionalId('pix-charge', p.chargeId),
  receivableId: encodeOptionalId('receivable', p.receivableId),
  receiptId: encodeOptionalId('receivable-receipt', p.receiptId),
  status: p.status,
  reviewReason: p.reviewReason,
  amount: amount(p.amount),
  originalAmount: amount(p.originalAmount),
  interest: amount(p.interest),
  fine: amount(p.fine),
  discount: amount(p.discount),
  refundedAmount: amount(p.refundedAmount),
  paidAt: iso(p.paidAt),
  payerInfo: p.payerInfo,
  refunds: refunds.filter((r) => r.paymentId === p.id).map(toRefundDto),
  createdAt: iso(p.createdAt),
});

export const toChargeDto = ({ charge: c, payments, refunds }: ChargeDetail) => ({
  id: encodeId('pix-charge', c.id),
  filialId: encodeId('filial', c.filialId),
  receivableId: encodeId('receivable', c.receivableId),
  bankAccountId: encodeId('bank-account', c.bankAccountId),
  kind: c.kind,
  txid: c.txid,
  status: c.status,
  pixKey: c.pixKey,
  amount: amount(c.amount),
  dueDate: c.dueDate,
  validity: c.validity,
  finePercent: toJsonNumber(c.finePercent, 'percent'),
  interestPerDayPercent: toJsonNumber(c.interestPerDayPercent, 'percent'),
  discountAmount: amount(c.discountAmount),
  discountDate: c.discountDate,
  location: c.location,
  brCode: c.brCode,
  refusalReason: c.refusalReason,
  payments: payments.map((p) => toPaymentDto(p, refunds)),
  createdBy: c.createdBy,
  createdAt: iso(c.createdAt),
  version: c.version,
});

export const toSummaryDto = (s: ApplySummary) => ({
  applied: s.applied,
  duplicates: s.duplicates,
  review: s.review,
  refundsSettled: s.refundsSettled,
});

export const toConnectionDto = (account: BankAccount, c: PixPspConnection) => ({
  bankAccountId: encodeId('bank-account', c.bankAccountId),
  pixKey: account.pixKey,
  baseUrl: c.baseUrl,
  tokenUrl: c.tokenUrl,
  clientId: c.clientId,
  clientSecretSet: Boolean(c.clientSecretSealed),
  paymentMethod: c.paymentMethodCode,
  webhookUrl: c.webhookUrl,
  webhookRegisteredAt: iso(c.webhookRegisteredAt),
  version: c.version,
  updatedAt: iso(c.updatedAt),
});
