import { sum, toJsonNumber } from '../../core/decimal';
import type { OpenItemSettlement } from './entities/settlement.entity';

/* The pieces of a settlement's DTO and event payload both sides share (each keeps its own ids and date keys around them). */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

/** The method and the money of a settlement (DTO and event payload alike). */
export const settlementMoney = (s: OpenItemSettlement) => ({
  method: s.paymentMethodCode,
  amount: amount(s.amount),
  interest: amount(s.interest),
  fine: amount(s.fine),
  discount: amount(s.discount),
  total: amount(s.total),
});

/** Who made it, when, and its reversal (DTO). */
export const settlementTrail = (s: OpenItemSettlement) => ({
  note: s.note,
  createdBy: s.createdBy,
  createdAt: iso(s.createdAt),
  reversedAt: iso(s.reversedAt),
  reversedBy: s.reversedBy,
  reversalReason: s.reversalReason,
  version: s.version,
});

/** What the standing (ACTIVE) settlements add up to. */
export function settlementTotals(settlements: OpenItemSettlement[]) {
  const standing = settlements.filter((x) => x.status === 'ACTIVE');
  const total = (f: (x: OpenItemSettlement) => OpenItemSettlement['amount']) => amount(sum(standing.map(f)));
  return {
    amount: total((x) => x.amount),
    interest: total((x) => x.interest),
    fine: total((x) => x.fine),
    discount: total((x) => x.discount),
    total: total((x) => x.total),
  };
}
