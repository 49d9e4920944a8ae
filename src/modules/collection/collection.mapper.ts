import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { BankAccountView } from './bank-accounts.service';
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
