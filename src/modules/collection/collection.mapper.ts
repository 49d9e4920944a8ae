import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { BankAccountView } from './bank-accounts.service';
import type { BoletoView } from './boletos.service';
import type { Remittance } from './entities/remittance.entity';
import type { ReturnReport } from './returns.service';
import { BANKS } from './banks/banks';

/* Entities → response DTOs of /collection (mirrors collection.responses.ts). */

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const percent = (d: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(d, 'percent');

export const toBankAccountDto = ({ account: a, nextNossoNumero, nextRemittanceNumber }: BankAccountView) => ({
  id: encodeId('bank-account', a.id),
  filialId: encodeId('filial', a.filialId),
  name: a.name,
  bankCode: a.bankCode,
  bankName: BANKS[a.bankCode].name,
  agency: a.agency,
  agencyDigit: a.agencyDigit,
  account: a.account,
  accountDigit: a.accountDigit,
  carteira: a.carteira,
  beneficiaryCode: a.beneficiaryCode,
  carteiraVariation: a.carteiraVariation,
  transmissionCode: a.transmissionCode,
  layout: a.layout,
  paymentMethodCode: a.paymentMethodCode,
  finePercent: percent(a.finePercent),
  interestPerDayPercent: percent(a.interestPerDayPercent),
  discountPercent: percent(a.discountPercent),
  discountDays: a.discountDays,
  instructions: a.instructions ? a.instructions.split('\n') : [],
  protestDays: a.protestDays,
  writeOffDays: a.writeOffDays,
  pixKey: a.pixKey,
  pspCode: a.pspCode,
  nextNossoNumero,
  nextRemittanceNumber,
  active: a.active,
  version: a.version,
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

const amount = (d: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(d, 'amount');

export const toBoletoDto = ({ boleto: b, pendingInstructions }: BoletoView) => ({
  id: encodeId('boleto', b.id),
  receivableId: encodeId('receivable', b.receivableId),
  bankAccountId: encodeId('bank-account', b.bankAccountId),
  bankCode: b.bankCode,
  nossoNumero: b.nossoNumeroPrinted,
  documentNumber: b.documentNumber,
  amount: amount(b.amount),
  issueDate: b.issueDate,
  dueDate: b.dueDate,
  barcode: b.barcode,
  digitableLine: b.digitableLine,
  finePercent: percent(b.finePercent),
  interestPerDayPercent: percent(b.interestPerDayPercent),
  discountAmount: amount(b.discountAmount),
  discountDate: b.discountDate,
  status: b.status,
  refusalReason: b.refusalReason,
  reviewReason: b.reviewReason,
  paidAmount: amount(b.paidAmount),
  registeredAt: iso(b.registeredAt),
  pendingInstructions: pendingInstructions.map((i) => ({
    kind: i.kind,
    dueDate: i.newDueDate,
    amount: i.newAmount ? amount(i.newAmount) : null,
  })),
  pdfUrl: `/api/collection/boletos/${encodeId('boleto', b.id)}/pdf`,
  version: b.version,
  createdAt: iso(b.createdAt),
  updatedAt: iso(b.updatedAt),
});

export const toRemittanceDto = (r: Remittance) => ({
  id: encodeId('remittance', r.id),
  bankAccountId: encodeId('bank-account', r.bankAccountId),
  fileNumber: r.fileNumber,
  layout: r.layout,
  fileName: r.fileName,
  recordCount: r.recordCount,
  instructionCount: r.instructionCount,
  totalAmount: amount(r.totalAmount),
  downloadUrl: `/api/collection/remittances/${encodeId('remittance', r.id)}/file`,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

export const toReturnReportDto = ({ bankReturn: r, occurrences }: ReturnReport) => ({
  id: encodeId('bank-return', r.id),
  bankAccountId: encodeId('bank-account', r.bankAccountId),
  fileNumber: r.fileNumber,
  summary: r.summary,
  occurrences: occurrences.map((o) => ({
    line: o.line,
    nossoNumero: o.nossoNumero,
    code: o.code,
    description: o.description,
    occurrenceDate: o.occurrenceDate,
    paidAmount: amount(o.paidAmount),
    outcome: o.outcome,
    reason: o.reason,
    boletoId: o.boletoId ? encodeId('boleto', o.boletoId) : null,
    receiptId: o.receiptId ? encodeId('receivable-receipt', o.receiptId) : null,
  })),
  createdAt: iso(r.createdAt),
});
