import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { BankAccount } from './entities/bank-account.entity';
import type { Boleto } from './entities/boleto.entity';

/* Audit entities and event payloads of collection (hashids only, decimals as numbers). */

export const BANK_ACCOUNT_AUDIT = 'bank-account';
export const BOLETO_AUDIT = 'boleto';
export const REMITTANCE_AUDIT = 'remittance';
export const BANK_RETURN_AUDIT = 'bank-return';

const percent = (d: BankAccount['finePercent']) => toJsonNumber(d, 'percent');

export const bankAccountData = (a: BankAccount) => ({
  id: encodeId('bank-account', a.id),
  filialId: encodeId('filial', a.filialId),
  name: a.name,
  bankCode: a.bankCode,
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
  instructions: a.instructions,
  protestDays: a.protestDays,
  writeOffDays: a.writeOffDays,
  pixKey: a.pixKey,
  pspCode: a.pspCode,
  active: a.active,
});

export const boletoData = (b: Boleto) => ({
  id: encodeId('boleto', b.id),
  receivableId: encodeId('receivable', b.receivableId),
  bankAccountId: encodeId('bank-account', b.bankAccountId),
  bankCode: b.bankCode,
  nossoNumero: b.nossoNumeroPrinted,
  amount: toJsonNumber(b.amount, 'amount'),
  dueDate: b.dueDate,
  digitableLine: b.digitableLine,
  status: b.status,
  paidAmount: toJsonNumber(b.paidAmount, 'amount'),
  refusalReason: b.refusalReason,
  reviewReason: b.reviewReason,
});
