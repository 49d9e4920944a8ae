import { expect } from 'chai';
import { CASH_SESSION_STATUSES, CashSessionStatus } from '../../src/modules/cash-sessions/entities/cash-session.entity';
import { cashSessionMachine, CashSessionAction, TRANSITIONS } from '../../src/modules/cash-sessions/cash-sessions.state';

/* The cash session's state table: every action against every status (docs/architecture.md, "State tables"). */
describe('Cash session state table', () => {
  const allowed: Record<CashSessionAction, CashSessionStatus[]> = {
    close: ['OPEN'],
    approve: ['PENDING_APPROVAL'],
    reopen: ['CLOSED', 'PENDING_APPROVAL'],
    move: ['OPEN'],
    sell: ['OPEN'],
  };
  for (const action of Object.keys(TRANSITIONS) as CashSessionAction[]) {
    for (const status of CASH_SESSION_STATUSES) {
      it(`${action} from ${status}: ${allowed[action].includes(status) ? 'allowed' : '409'}`, () => {
        expect(cashSessionMachine.canDo({ status }, action)).to.equal(allowed[action].includes(status));
        if (!allowed[action].includes(status)) {
          const err = cashSessionMachine.forbidden({ status }, action);
          expect(err.code).to.equal(`CASH_SESSION_${status}`);
          expect(err.message).to.contain(status);
        }
      });
    }
  }
  it('close leads to CLOSED or PENDING_APPROVAL only; approve to CLOSED; reopen to OPEN', () => {
    expect(() => cashSessionMachine.assertTransition({ status: 'OPEN' }, 'close', 'OPEN')).to.throw();
    cashSessionMachine.assertTransition({ status: 'OPEN' }, 'close', 'PENDING_APPROVAL');
    cashSessionMachine.assertTransition({ status: 'PENDING_APPROVAL' }, 'approve', 'CLOSED');
    cashSessionMachine.assertTransition({ status: 'CLOSED' }, 'reopen', 'OPEN');
  });
});
