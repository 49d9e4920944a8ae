import { Dec, sum, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, FieldError } from '../../core/errors';
import type { PaymentMethod } from '../catalog';

export interface PaymentInput {
  method: string;
  amount: Dec;
  card?: {
    integration: 'TEF' | 'POS';
    acquirerCnpj: string | null;
    brand: string | null;
    authorizationCode: string | null;
    nsu: string | null;
  };
  pix?: { endToEndId: string; static: boolean; pspCnpj: string | null };
  takenAt?: { cnpj: string; uf: string };
}

export interface SettledPayment {
  method: PaymentMethod;
  amount: Dec;
  change: Dec;
  input: PaymentInput;
}

const CARD_KINDS = new Set(['CREDIT_CARD', 'DEBIT_CARD']);

/**
 * Settles a counter sale (SPEC §7): payments must cover the total; an over-payment is change, and only
 * methods that give change (cash) may carry it — the other methods together must not exceed the total.
 * The change is taken from the cash payments, last first.
 */
export function settlePayments(
  total: Dec,
  payments: PaymentInput[],
  methods: Map<string, PaymentMethod>,
  allowed: string[],
): { settled: SettledPayment[]; change: Dec } {
  const errors: FieldError[] = [];
  payments.forEach((p, i) => {
    const m = methods.get(p.method);
    if (!m || !m.active || !allowed.includes(p.method))
      errors.push({ path: `payments[${i}].method`, message: `${p.method} is not accepted at this counter` });
  });
  if (errors.length)
    throw new BusinessRuleError('PAYMENT_METHOD_NOT_ALLOWED', 'A payment method is not accepted for quick sales in this filial', {
      errors,
    });
  payments.forEach((p, i) => {
    const kind = methods.get(p.method)!.kind;
    if (p.card && !CARD_KINDS.has(kind)) errors.push({ path: `payments[${i}].card`, message: `${p.method} is not a card method` });
    if (p.pix && kind !== 'PIX') errors.push({ path: `payments[${i}].pix`, message: `${p.method} is not a Pix method` });
  });
  if (errors.length)
    throw new BusinessRuleError('PAYMENT_IDENTIFICATION_MISMATCH', "A payment's identification does not fit its method", { errors });

  const paid = sum(payments.map((p) => p.amount));
  if (paid.lt(total)) {
    throw new BusinessRuleError('PAYMENT_INSUFFICIENT', `Payments (${paid.toFixed(2)}) do not cover the total (${total.toFixed(2)})`, {
      total: toJsonNumber(total, 'amount'),
      paid: toJsonNumber(paid, 'amount'),
    });
  }
  const nonCash = sum(payments.filter((p) => !methods.get(p.method)!.givesChange).map((p) => p.amount));
  if (nonCash.gt(total)) {
    throw new BusinessRuleError(
      'PAYMENT_EXCEEDS_TOTAL',
      `Payments by methods that give no change (${nonCash.toFixed(2)}) exceed the total (${total.toFixed(2)})`,
      {
        total: toJsonNumber(total, 'amount'),
      },
    );
  }
  let change = paid.minus(total);
  const settled: SettledPayment[] = payments.map((p) => ({
    method: methods.get(p.method)!,
    amount: p.amount,
    change: new Dec(0),
    input: p,
  }));
  for (let i = settled.length - 1; i >= 0 && change.gt(0); i--) {
    if (!settled[i].method.givesChange) continue;
    const take = Dec.min(change, settled[i].amount);
    settled[i].change = take;
    change = change.minus(take);
  }
  return { settled, change: paid.minus(total) };
}
