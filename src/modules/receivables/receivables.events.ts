import { encodeId, encodeOptionalId } from '../../core/hashids';
import { Dec, toJsonNumber } from '../../core/decimal';
import { settlementMoney } from '../open-items';
import type { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable } from './entities/receivable.entity';
import { openAmountOf } from './receivables.rules';

/* Event payloads of receivables (hashids only, money as JSON numbers); use cases publish them. */

const money = (d: Dec) => toJsonNumber(d, 'amount')!;

export const RECEIVABLE_AUDIT = 'receivable';
export const RECEIPT_AUDIT = 'receivable-receipt';

type ReceivableFields = Omit<Receivable, 'id' | 'createdAt' | 'updatedAt' | 'cancelledAt' | 'version'>;

/** Who owes a receivable, from which sale and document, which installment and when: its payload and its DTO alike. */
export const receivableTerms = (r: ReceivableFields) => ({
  filialId: encodeId('filial', r.filialId),
  debtorType: r.debtorType,
  customerId: encodeOptionalId('customer', r.customerId),
  paymentMethod: r.paymentMethodCode,
  origin: r.originType,
  salesOrderId: encodeId('sales-order', r.salesOrderId),
  salesOrderCode: r.salesOrderCode,
  fulfillmentId: encodeId('fulfillment', r.fulfillmentId),
  accessKey: r.accessKey,
  installmentNumber: r.installmentNumber,
  installmentCount: r.installmentCount,
  issueDate: r.issueDate,
  dueDate: r.dueDate,
});

/** What a receivable is worth, what was received and credited of it and what is still open, with its status. */
export const receivableBalance = (r: ReceivableFields) => ({
  amount: money(r.amount),
  receivedAmount: money(r.receivedAmount),
  creditedAmount: money(r.creditedAmount),
  openAmount: money(openAmountOf(r)),
  status: r.status,
});

/**
 * A receivable's payload without its own id (the event's resource names it: aggregate 'receivable'),
 * so a billing can write it before the id is known (billing.service).
 */
export const receivableFields = (r: ReceivableFields) => ({
  ...receivableTerms(r),
  grossAmount: money(r.grossAmount),
  feeAmount: money(r.feeAmount),
  ...receivableBalance(r),
});

export const receivableData = (r: Receivable) => ({ id: encodeId('receivable', r.id), ...receivableFields(r) });

export const receiptData = (p: ReceivableReceipt) => ({
  id: encodeId('receivable-receipt', p.id),
  receiptDate: p.receiptDate,
  ...settlementMoney(p),
  bankFee: money(p.bankFee),
  creditDate: p.creditDate,
});
