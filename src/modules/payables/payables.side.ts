import { diff } from '../../core/audit/audit.service';
import { Dec, toFixed, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import { OpenItemSide, settlementMoney } from '../open-items';
import { PayablePayment } from './entities/payable-payment.entity';
import type { Payable, PayableStatus } from './entities/payable.entity';
import { findPayable, updatePayableIf } from './payables.repository';
import { assertAllowed, assertTransition, PayableAction } from './payables.state';

/*
 * Payables as a side of the open-items kernel (docs/decisions/open-items.md): a payment settles a
 * payable; OPEN → PARTIALLY_PAID → PAID. A payable has no credited amount (a supplier return lowers
 * its amount instead, deductions.service), and nothing owed with nothing paid stays OPEN.
 */

export const PAYABLE_AUDIT = 'payable';
export const PAYMENT_AUDIT = 'payable-payment';

const money = (d: Dec) => toJsonNumber(d, 'amount');

/** The event payload of a payment (hashids only). */
export const paymentData = (p: PayablePayment) => ({
  id: encodeId('payable-payment', p.id),
  paymentDate: p.paymentDate,
  ...settlementMoney(p),
});

/** The event payload of a payable (hashids only). */
export const payableData = (p: Payable) => ({
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

export const PAYABLE_SIDE: OpenItemSide<PayableStatus, PayableAction, Payable, PayablePayment> = {
  names: { item: 'payable', settlement: 'payment' },
  ids: { item: 'payable', settlement: 'payable-payment' },
  settlementEntity: PayablePayment,
  columns: { item: 'payableId', date: 'paymentDate' },
  statuses: { open: 'OPEN', partial: 'PARTIALLY_PAID', settled: 'PAID' },
  actions: { settle: 'pay', reverse: 'reverse-payment' },
  machine: { assertAllowed, assertTransition },
  audit: {
    item: PAYABLE_AUDIT,
    settlement: PAYMENT_AUDIT,
    settled: 'PAYMENT_REGISTERED',
    reversed: 'PAYMENT_REVERSED',
    settledRef: 'paymentId',
    reversedRef: 'reversedPaymentId',
  },
  events: {
    settled: (p) => (p.status === 'PAID' ? 'payable.paid' : 'payable.partially-paid'),
    reversed: 'payable.payment-reversed',
    key: 'payment',
  },
  findItem: findPayable,
  balance: (p) => ({ amount: p.amount, settled: p.paidAmount, credited: new Dec(0) }),
  updateIf: (em, companyId, before, { settled, status }) =>
    updatePayableIf(em, companyId, before.id, { status: before.status, version: before.version }, { paidAmount: settled, status }),
  itemChanges: (before, after) =>
    diff(
      { paidAmount: toFixed(before.paidAmount, 'amount'), status: before.status },
      { paidAmount: toFixed(after.paidAmount, 'amount'), status: after.status },
    ),
  itemData: payableData,
  settlementData: paymentData,
};
