import { Dec, sum } from '../../core/decimal';
import type { CashMovement } from './entities/cash-movement.entity';
import type { ClosingLine } from './entities/cash-session.entity';
import type { SessionSalePayment } from './cash-sessions.ports';

/*
 * The arithmetic of a session, in one pure place (the property tests drive it through HTTP and compare
 * with it). Every cash payment falls in one drawer line, CASH, whatever the method's code: the drawer
 * holds one pile of notes. The other methods are expected by their code, from the sales.
 */
export const DRAWER = 'CASH';

export interface ExpectedLine {
  method: string;
  kind: string;
  expected: Dec;
  /** What the standing sales took with the method (cash: received − change). */
  sales: Dec;
}

export interface SessionFigures {
  lines: ExpectedLine[];
  cashReceived: Dec;
  changeGiven: Dec;
  sangrias: Dec;
  suprimentos: Dec;
  salesCount: number;
  cancelledSalesCount: number;
  salesTotal: Dec;
}

const zero = () => new Dec(0);

/** Expected per method: cash = float + cash received − change − sangrias + suprimentos; others their sales. */
export function sessionFigures(
  openingFloat: Dec,
  payments: SessionSalePayment[],
  movements: Pick<CashMovement, 'type' | 'amount'>[],
): SessionFigures {
  const standing = payments.filter((p) => !p.cancelled);
  const cash = standing.filter((p) => p.kind === 'CASH');
  const cashReceived = sum(cash.map((p) => p.amount));
  const changeGiven = sum(cash.map((p) => p.change));
  const sangrias = sum(movements.filter((m) => m.type === 'SANGRIA').map((m) => m.amount));
  const suprimentos = sum(movements.filter((m) => m.type === 'SUPRIMENTO').map((m) => m.amount));
  const drawer: ExpectedLine = {
    method: DRAWER,
    kind: 'CASH',
    sales: cashReceived.minus(changeGiven),
    expected: openingFloat.plus(cashReceived).minus(changeGiven).minus(sangrias).plus(suprimentos),
  };
  const others = new Map<string, ExpectedLine>();
  for (const p of standing) {
    if (p.kind === 'CASH') continue;
    const line = others.get(p.methodCode) ?? { method: p.methodCode, kind: p.kind, sales: zero(), expected: zero() };
    line.sales = line.sales.plus(p.amount.minus(p.change));
    line.expected = line.sales;
    others.set(p.methodCode, line);
  }
  const orders = new Set(payments.map((p) => p.salesOrderId));
  const cancelled = new Set(payments.filter((p) => p.cancelled).map((p) => p.salesOrderId));
  return {
    lines: [drawer, ...[...others.values()].sort((a, b) => a.method.localeCompare(b.method))],
    cashReceived,
    changeGiven,
    sangrias,
    suprimentos,
    salesCount: orders.size - cancelled.size,
    cancelledSalesCount: cancelled.size,
    salesTotal: sum(standing.map((p) => p.amount.minus(p.change))),
  };
}

/** The close: every expected method and every counted one; a method not counted counts 0. */
export function closingLines(
  expected: ExpectedLine[],
  counted: { method: string; amount: Dec }[],
  kindOf: (method: string) => string,
): ClosingLine[] {
  const byMethod = new Map(counted.map((c) => [c.method, c.amount]));
  const lines = expected.map((e) => ({ method: e.method, kind: e.kind, expected: e.expected, counted: byMethod.get(e.method) ?? zero() }));
  for (const c of counted)
    if (!expected.some((e) => e.method === c.method))
      lines.push({ method: c.method, kind: kindOf(c.method), expected: zero(), counted: c.amount });
  return lines.map((l) => ({
    method: l.method,
    kind: l.kind,
    expected: l.expected.toFixed(2),
    counted: l.counted.toFixed(2),
    difference: l.counted.minus(l.expected).toFixed(2),
  }));
}

/** Any method's difference beyond the limit (either way) needs a supervisor. */
export const needsApproval = (lines: ClosingLine[], limit: Dec): boolean => lines.some((l) => new Dec(l.difference).abs().gt(limit));
