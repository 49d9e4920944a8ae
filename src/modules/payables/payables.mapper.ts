import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { Payable } from './entities/payable.entity';
import { isOverdue, PayablesSummary } from './payables.service';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

export const toPayableDto = (p: Payable, today?: string) => ({
  id: encodeId('payable', p.id),
  filialId: encodeId('filial', p.filialId),
  entryDocumentId: encodeId('entry-document', p.entryDocumentId),
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

export const toPayablesSummaryDto = (s: PayablesSummary) => ({
  count: s.count,
  amount: amount(s.amount),
  paidAmount: amount(s.paidAmount),
  openAmount: amount(s.openAmount),
  overdueCount: s.overdueCount,
  overdueAmount: amount(s.overdueAmount),
  byStatus: Object.fromEntries(Object.entries(s.byStatus).map(([k, v]) => [k, { count: v.count, amount: amount(v.amount), paidAmount: amount(v.paidAmount) }])),
});
