import { diff } from '../../core/audit/audit.service';
import { toFixed } from '../../core/decimal';
import { OpenItemSide } from '../open-items';
import { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable, ReceivableStatus } from './entities/receivable.entity';
import { RECEIPT_AUDIT, RECEIVABLE_AUDIT, receiptData, receivableData } from './receivables.events';
import { findReceivable, updateReceivableIf } from './receivables.repository';
import { assertAllowed, assertTransition, ReceivableAction } from './receivables.state';

/*
 * Receivables as a side of the open-items kernel (docs/decisions/open-items.md): a receipt settles a
 * receivable; OPEN → PARTIALLY_RECEIVED → RECEIVED. Returns credit a receivable (credits.service,
 * through the same writeOpenItem), and one credited in full with nothing received is CANCELLED.
 */
export const RECEIVABLE_SIDE: OpenItemSide<ReceivableStatus, ReceivableAction, Receivable, ReceivableReceipt> = {
  names: { item: 'receivable', settlement: 'receipt' },
  ids: { item: 'receivable', settlement: 'receivable-receipt' },
  settlementEntity: ReceivableReceipt,
  columns: { item: 'receivableId', date: 'receiptDate' },
  statuses: { open: 'OPEN', partial: 'PARTIALLY_RECEIVED', settled: 'RECEIVED', nothingOwed: 'CANCELLED' },
  actions: { settle: 'receive', reverse: 'reverse-receipt' },
  machine: { assertAllowed, assertTransition },
  audit: {
    item: RECEIVABLE_AUDIT,
    settlement: RECEIPT_AUDIT,
    settled: 'RECEIPT_REGISTERED',
    reversed: 'RECEIPT_REVERSED',
    settledRef: 'receiptId',
    reversedRef: 'reversedReceiptId',
  },
  events: { settled: () => 'receivable.received', reversed: 'receivable.receipt-reversed', key: 'receipt' },
  findItem: findReceivable,
  balance: (r) => ({ amount: r.amount, settled: r.receivedAmount, credited: r.creditedAmount }),
  updateIf: (em, companyId, before, { settled, credited, status }) =>
    updateReceivableIf(
      em,
      companyId,
      before.id,
      { status: before.status, version: before.version },
      { receivedAmount: settled, creditedAmount: credited, status, cancelled: status === 'CANCELLED' },
    ),
  itemChanges: (before, after) =>
    diff(
      {
        receivedAmount: toFixed(before.receivedAmount, 'amount'),
        creditedAmount: toFixed(before.creditedAmount, 'amount'),
        status: before.status,
      },
      {
        receivedAmount: toFixed(after.receivedAmount, 'amount'),
        creditedAmount: toFixed(after.creditedAmount, 'amount'),
        status: after.status,
      },
    ),
  itemData: receivableData,
  settlementData: receiptData,
};
