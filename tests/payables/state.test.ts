import { expect } from 'chai';
import type { PayableStatus } from '../../src/modules/payables/entities/payable.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  PAYABLE_STATUSES,
  PayableAction,
  TRANSITIONS,
} from '../../src/modules/payables/payables.state';

/** The transition table of payables, every action against every status, without a database. */
const EXPECTED: Record<PayableAction, Partial<Record<PayableStatus, PayableStatus[]>>> = {
  pay: { OPEN: ['PARTIALLY_PAID', 'PAID'], PARTIALLY_PAID: ['PARTIALLY_PAID', 'PAID'] },
  'reverse-payment': { OPEN: ['OPEN'], PARTIALLY_PAID: ['OPEN', 'PARTIALLY_PAID'], PAID: ['OPEN', 'PARTIALLY_PAID'] },
  cancel: { OPEN: ['CANCELLED'] },
  deduct: { OPEN: ['OPEN', 'CANCELLED'], PARTIALLY_PAID: ['PARTIALLY_PAID', 'PAID'] },
  restore: { OPEN: ['OPEN'], PARTIALLY_PAID: ['PARTIALLY_PAID'], PAID: ['PARTIALLY_PAID', 'PAID'], CANCELLED: ['OPEN'] },
};
const CODES: Record<PayableStatus, string> = {
  OPEN: 'PAYABLE_OPEN',
  PARTIALLY_PAID: 'PAYABLE_PARTIALLY_PAID',
  PAID: 'PAYABLE_ALREADY_PAID',
  CANCELLED: 'PAYABLE_CANCELLED',
};

describe('Payables: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as PayableAction[]) {
    for (const status of PAYABLE_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 ${CODES[status]}`}`, () => {
        const payable = { status };
        expect(canDo(payable, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(payable, action))
            .to.throw()
            .that.satisfies((e: any) => e.code === CODES[status] && e.extensions.currentStatus === status);
          return;
        }
        expect(() => assertAllowed(payable, action)).not.to.throw();
        for (const to of PAYABLE_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(payable, action, to)).not.to.throw();
          else expect(() => assertTransition(payable, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }
});
