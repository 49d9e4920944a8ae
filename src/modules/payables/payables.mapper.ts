import { toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import { settlementMoney, settlementTotals, settlementTrail } from '../open-items';
import type { PayablePayment } from './entities/payable-payment.entity';
import type { Payable } from './entities/payable.entity';
import { isOverdue, PayablesSummary } from './payables.service';
import type { PaymentOutcome } from './payments.service';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

export const toPayableDto = (p: Payable, today?: string) => ({
  id: encodeId('payable', p.id),
  filialId: encodeId('filial', p.filialId),
  entryDocumentId: encodeOptionalId('entry-document', p.entryDocumentId),
  /** Where it comes from: an entry document, or a CT-e (freight, the carrier as supplier). */
  source: p.sourceType,
  cteId: encodeOptionalId('cte', p.cteId),
  supplier: { id: encodeId('supplier', p.supplierId), document: p.supplierDocument, name: p.supplierName },
  documentNumber: p.documentNumber,
  installmentNumber: p.installmentNumber,
  issueDate: p.issueDate,
  dueDate: p.dueDate,
  amount: amount(p.amount),
  paidAmount: amount(p.paidAmount),
  openAmount: p.status === 'CANCELLED' ? 0 : amount(p.amount.minus(p.paidAmount)),
  status: p.status,
  overdue: isOverdue(p, today),
  version: p.version,
  cancelledAt: iso(p.cancelledAt),
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});

const agingDto = (b: PayablesSummary['aging'][keyof PayablesSummary['aging']]) => ({ count: b.count, openAmount: amount(b.openAmount) });

export const toPayablesSummaryDto = (s: PayablesSummary) => ({
  count: s.count,
  amount: amount(s.amount),
  paidAmount: amount(s.paidAmount),
  openAmount: amount(s.openAmount),
  overdueCount: s.overdueCount,
  overdueAmount: amount(s.overdueAmount),
  byStatus: Object.fromEntries(
    Object.entries(s.byStatus).map(([k, v]) => [k, { count: v.count, amount: amount(v.amount), paidAmount: amount(v.paidAmount) }]),
  ),
  aging: {
    dueIn0To7Days: agingDto(s.aging.DUE_0_7),
    dueIn8To30Days: agingDto(s.aging.DUE_8_30),
    dueIn31PlusDays: agingDto(s.aging.DUE_31_PLUS),
    overdue1To30Days: agingDto(s.aging.OVERDUE_1_30),
    overdue31To60Days: agingDto(s.aging.OVERDUE_31_60),
    overdue61PlusDays: agingDto(s.aging.OVERDUE_61_PLUS),
  },
});

export const toPaymentDto = (p: PayablePayment) => ({
  id: encodeId('payable-payment', p.id),
  payableId: encodeId('payable', p.payableId),
  status: p.status,
  paymentDate: p.paymentDate,
  ...settlementMoney(p),
  ...settlementTrail(p),
});

/** A payable with its payments (reversed ones included) and what they added up to. */
export const toPayableDetailDto = (p: Payable, payments: PayablePayment[], today?: string) => ({
  ...toPayableDto(p, today),
  paymentTotals: settlementTotals(payments),
  payments: payments.map(toPaymentDto),
});

/** The answer to a payment or its reversal: the payment, and the payable after it with all its payments. */
export const toPaymentResultDto = (o: PaymentOutcome, today?: string) => ({
  payment: toPaymentDto(o.payment),
  payable: toPayableDetailDto(o.payable, o.payments, today),
});
