import { businessToday } from './business-date';
import { Dec } from './decimal';
import { BusinessRuleError, ValidationError } from './errors';

/*
 * A payment of a payable and a receipt of a receivable have the same arithmetic: `amount` settles the
 * balance, interest (juros) and fine (multa) come on top, a discount (desconto) is granted off, so
 * the money that moved is `total = amount + interest + fine − discount` (never negative), and it is
 * not dated after today (business date).
 */
export interface SettlementInput {
  amount: Dec;
  interest?: Dec | null;
  fine?: Dec | null;
  discount?: Dec | null;
}

export interface SettlementAmounts {
  interest: Dec;
  fine: Dec;
  discount: Dec;
  total: Dec;
}

const ZERO = new Dec(0);

/** The amounts of a settlement, or 400 (discount above the rest) / 422 `<futureCode>` (dated after today). */
export function settlementAmounts(input: SettlementInput, date: { field: string; value: string; futureCode: string }): SettlementAmounts {
  const interest = input.interest ?? ZERO;
  const fine = input.fine ?? ZERO;
  const discount = input.discount ?? ZERO;
  const total = input.amount.plus(interest).plus(fine).minus(discount);
  if (total.lt(0))
    throw new ValidationError('Invalid request', [{ path: 'discount', message: 'discount cannot exceed amount + interest + fine' }]);
  if (date.value > businessToday()) {
    throw new BusinessRuleError(date.futureCode, `A ${date.field.replace(/Date$/, '')} cannot be dated after today (${date.value})`, {
      [date.field]: date.value,
    });
  }
  return { interest, fine, discount, total };
}
