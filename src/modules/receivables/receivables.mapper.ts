import type { AuditLog } from '../../core/audit/audit-log.entity';
import { sum, toFixed, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { Customer } from '../catalog';
import type { CustomerCredit } from './entities/customer-credit.entity';
import { settlementMoney, settlementTotals, settlementTrail } from '../open-items';
import type { ReceivableReceipt } from './entities/receivable-receipt.entity';
import type { Receivable } from './entities/receivable.entity';
import { receivableBalance, receivableTerms } from './receivables.events';
import { openAmountOf } from './receivables.rules';
import { ExportChunk, isOverdue, ReceivablesSummary } from './receivables.service';
import type { ReceiptOutcome } from './receipts.service';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

export const toReceivableDto = (r: Receivable, today?: string) => ({
  id: encodeId('receivable', r.id),
  ...receivableTerms(r),
  grossAmount: amount(r.grossAmount),
  feePercent: toJsonNumber(r.feePercent, 'percent'),
  feeAmount: amount(r.feeAmount),
  ...receivableBalance(r),
  overdue: isOverdue(r, today),
  cancelReason: r.cancelReason,
  cancelledAt: iso(r.cancelledAt),
  card:
    r.nsu === null && r.authorizationCode === null
      ? null
      : { nsu: r.nsu, authorizationCode: r.authorizationCode, cardBrand: r.cardBrand, acquirerCnpj: r.acquirerCnpj },
  version: r.version,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const agingDto = (b: ReceivablesSummary['aging'][keyof ReceivablesSummary['aging']]) => ({
  count: b.count,
  openAmount: amount(b.openAmount),
});

export const toReceivablesSummaryDto = (s: ReceivablesSummary) => ({
  capped: s.capped,
  count: s.count,
  amount: amount(s.amount),
  receivedAmount: amount(s.receivedAmount),
  creditedAmount: amount(s.creditedAmount),
  openAmount: amount(s.openAmount),
  overdueCount: s.overdueCount,
  overdueAmount: amount(s.overdueAmount),
  byStatus: Object.fromEntries(
    Object.entries(s.byStatus).map(([k, v]) => [k, { count: v.count, amount: amount(v.amount), receivedAmount: amount(v.receivedAmount) }]),
  ),
  aging: {
    current: agingDto(s.aging.CURRENT),
    overdue1To30Days: agingDto(s.aging.OVERDUE_1_30),
    overdue31To60Days: agingDto(s.aging.OVERDUE_31_60),
    overdue61To90Days: agingDto(s.aging.OVERDUE_61_90),
    overdueOver90Days: agingDto(s.aging.OVERDUE_91_PLUS),
  },
});

export const toReceiptDto = (p: ReceivableReceipt) => ({
  id: encodeId('receivable-receipt', p.id),
  receivableId: encodeId('receivable', p.receivableId),
  status: p.status,
  receiptDate: p.receiptDate,
  ...settlementMoney(p),
  bankFee: amount(p.bankFee),
  creditDate: p.creditDate,
  ...settlementTrail(p),
});

/** A receivable with its receipts (reversed ones included) and what the standing ones add up to. */
export const toReceivableDetailDto = (r: Receivable, receipts: ReceivableReceipt[], today?: string) => ({
  ...toReceivableDto(r, today),
  receiptTotals: settlementTotals(receipts),
  receipts: receipts.map(toReceiptDto),
});

/** The answer to a receipt or its reversal: the receipt, and the receivable after it with all its receipts. */
export const toReceiptResultDto = (o: ReceiptOutcome, today?: string) => ({
  receipt: toReceiptDto(o.receipt),
  receivable: toReceivableDetailDto(o.receivable, o.receipts, today),
});

export const toCustomerCreditDto = (c: CustomerCredit) => ({
  id: encodeId('customer-credit', c.id),
  kind: c.kind,
  method: c.methodCode,
  amount: amount(c.amount),
  returnId: encodeId('return', c.returnId),
  salesOrderId: encodeId('sales-order', c.salesOrderId),
  createdAt: iso(c.createdAt),
});

export const toStatementCustomerDto = (c: Pick<Customer, 'id' | 'name' | 'document'>) => ({
  id: encodeId('customer', c.id),
  name: c.name,
  document: c.document,
});

export const toAuditEntryDto = (a: AuditLog) => ({
  entity: a.entity,
  entityId: a.entity === 'receivable-receipt' ? encodeId('receivable-receipt', a.entityId) : encodeId('receivable', a.entityId),
  action: a.action,
  actor: a.actor,
  requestId: a.requestId,
  at: iso(a.createdAt),
  changes: a.changes,
});

const CSV_COLUMNS = [
  'id',
  'filialId',
  'debtorType',
  'customerId',
  'customerName',
  'customerDocument',
  'paymentMethod',
  'origin',
  'salesOrderCode',
  'accessKey',
  'installmentNumber',
  'installmentCount',
  'issueDate',
  'dueDate',
  'grossAmount',
  'feeAmount',
  'amount',
  'receivedAmount',
  'interest',
  'fine',
  'discount',
  'creditedAmount',
  'openAmount',
  'status',
  'overdue',
] as const;

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

/**
 * CSV rows (RFC 4180: comma, CRLF; amounts with a dot and 2 places, exact) of receivables as the list
 * shows them, with the customer's name and CPF/CNPJ and the interest, fine and discount of the standing
 * receipts (reversed ones excluded, as the detail's receiptTotals).
 */
export const toCsvRows = (chunk: ExportChunk, today: string): string =>
  chunk.rows
    .map((r) => {
      const customer = r.customerId === null ? undefined : chunk.customers.get(r.customerId);
      const standing = chunk.receipts.filter((p) => p.receivableId === r.id && p.status === 'ACTIVE');
      const total = (f: (p: ReceivableReceipt) => ReceivableReceipt['amount']) => toFixed(sum(standing.map(f)), 'amount');
      const dto: Record<string, unknown> = {
        ...toReceivableDto(r, today),
        customerName: customer?.name ?? null,
        customerDocument: customer?.document ?? null,
        grossAmount: toFixed(r.grossAmount, 'amount'),
        feeAmount: toFixed(r.feeAmount, 'amount'),
        amount: toFixed(r.amount, 'amount'),
        receivedAmount: toFixed(r.receivedAmount, 'amount'),
        interest: total((p) => p.interest),
        fine: total((p) => p.fine),
        discount: total((p) => p.discount),
        creditedAmount: toFixed(r.creditedAmount, 'amount'),
        openAmount: toFixed(openAmountOf(r), 'amount'),
      };
      return `${CSV_COLUMNS.map((c) => csvCell(dto[c])).join(',')}\r\n`;
    })
    .join('');
