import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import type { ReceivableStatus } from '../../src/modules/receivables/entities/receivable.entity';
import { feeOf, installments, statusFor } from '../../src/modules/receivables/receivables.rules';
import {
  assertAllowed,
  assertTransition,
  canDo,
  RECEIVABLE_STATUSES,
  ReceivableAction,
  TRANSITIONS,
} from '../../src/modules/receivables/receivables.state';

/** The transition table of receivables, every action against every status, and the pure rules, without a database. */
const EXPECTED: Record<ReceivableAction, Partial<Record<ReceivableStatus, ReceivableStatus[]>>> = {
  receive: { OPEN: ['PARTIALLY_RECEIVED', 'RECEIVED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] },
  'reverse-receipt': { PARTIALLY_RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'], RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'] },
  cancel: { OPEN: ['CANCELLED'] },
  credit: { OPEN: ['OPEN', 'CANCELLED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] },
  collect: { OPEN: ['OPEN'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED'] },
};
const CODES: Record<ReceivableStatus, string> = {
  OPEN: 'RECEIVABLE_OPEN',
  PARTIALLY_RECEIVED: 'RECEIVABLE_PARTIALLY_RECEIVED',
  RECEIVED: 'RECEIVABLE_ALREADY_RECEIVED',
  CANCELLED: 'RECEIVABLE_CANCELLED',
};

describe('Receivables: the transition table and rules (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as ReceivableAction[]) {
    for (const status of RECEIVABLE_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 ${CODES[status]}`}`, () => {
        const r = { status };
        expect(canDo(r, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(r, action))
            .to.throw()
            .that.satisfies(
              (e: { code: string; extensions: { currentStatus: string } }) =>
                e.code === CODES[status] && e.extensions.currentStatus === status,
            );
          return;
        }
        expect(() => assertAllowed(r, action)).not.to.throw();
        for (const to of RECEIVABLE_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(r, action, to)).not.to.throw();
          else expect(() => assertTransition(r, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }

  it('installments: equal shares to the cent, the remainder on the last, due by calendar days', () => {
    expect(installments(new Dec('100'), '2026-01-31', [30, 60, 90]).map((p) => [p.number, p.dueDate, p.amount.toFixed(2)])).to.deep.equal([
      [1, '2026-03-02', '33.33'],
      [2, '2026-04-01', '33.33'],
      [3, '2026-05-01', '33.34'],
    ]);
    expect(installments(new Dec('0.02'), '2026-01-01', [0, 0, 0]).map((p) => p.amount.toFixed(2))).to.deep.equal(['0.00', '0.00', '0.02']);
    expect(installments(new Dec('10'), '2026-01-01', [0]).map((p) => [p.dueDate, p.amount.toFixed(2)])).to.deep.equal([
      ['2026-01-01', '10.00'],
    ]);
  });

  it("the acquirer's fee rounds half up to the cent; the status follows what is settled", () => {
    expect(feeOf(new Dec('100'), new Dec('2.99')).toFixed(2)).to.equal('2.99');
    expect(feeOf(new Dec('20'), new Dec('2.99')).toFixed(2)).to.equal('0.60');
    expect(feeOf(new Dec('0.50'), new Dec('1')).toFixed(2)).to.equal('0.01');
    const s = (a: string, r: string, c: string) => statusFor(new Dec(a), new Dec(r), new Dec(c));
    expect([
      s('10', '0', '0'),
      s('10', '5', '0'),
      s('10', '10', '0'),
      s('10', '0', '10'),
      s('10', '4', '6'),
      s('10', '0', '4'),
    ]).to.deep.equal(['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED', 'RECEIVED', 'OPEN']);
  });
});
