import { expect } from 'chai';
import { TRANSFER_STATUSES, TransferStatus } from '../../src/modules/transfers/entities/stock-transfer.entity';
import { assertTransition, canDo, moveOf, TransferAction, TRANSITIONS } from '../../src/modules/transfers/transfers.state';

/** The transition table of transfers between filiais, every action against every status, without a database. */
const EXPECTED: Record<TransferAction, { from: TransferStatus; to: TransferStatus }> = {
  issue: { from: 'ISSUING', to: 'ISSUING' },
  authorize: { from: 'ISSUING', to: 'AUTHORIZED' },
  release: { from: 'ISSUING', to: 'RELEASED' },
  cancel: { from: 'AUTHORIZED', to: 'CANCELLED' },
};

describe('Transfers: the transition table (unit)', () => {
  it('names every action and nothing else; each makes one move', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
    for (const action of Object.keys(EXPECTED) as TransferAction[]) expect(moveOf(action), action).to.deep.equal(EXPECTED[action]);
  });

  for (const action of Object.keys(EXPECTED) as TransferAction[]) {
    for (const status of TRANSFER_STATUSES) {
      const allowed = EXPECTED[action].from === status;
      it(`${action} from ${status}: ${allowed ? `allowed → ${EXPECTED[action].to}` : `409 TRANSFER_${status}`}`, () => {
        expect(canDo({ status }, action)).to.equal(allowed);
        if (!allowed) {
          expect(() => assertTransition({ status }, action, EXPECTED[action].to))
            .to.throw()
            .that.satisfies((e: any) => e.code === `TRANSFER_${status}`);
          return;
        }
        for (const to of TRANSFER_STATUSES) {
          if (to === EXPECTED[action].to) expect(() => assertTransition({ status }, action, to)).not.to.throw();
          else expect(() => assertTransition({ status }, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }
});
