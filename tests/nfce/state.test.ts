import { expect } from 'chai';
import type { NfceStatus } from '../../src/modules/nfce/entities/nfce-document.entity';
import { assertAllowed, assertTransition, canDo, NfceAction, TRANSITIONS } from '../../src/modules/nfce/nfce.state';

/** The transition table of NFC-e, every action against every status, without a database. */
const STATUSES: NfceStatus[] = ['SIGNED', 'AUTHORIZED', 'CONTINGENCY', 'REJECTED', 'CANCELLED'];
const EXPECTED: Record<NfceAction, Partial<Record<NfceStatus, NfceStatus[]>>> = {
  record: { SIGNED: ['AUTHORIZED', 'REJECTED'], CONTINGENCY: ['AUTHORIZED', 'REJECTED'] },
  contingency: { SIGNED: ['CONTINGENCY'] },
  cancel: { AUTHORIZED: ['CANCELLED'] },
  'settle-original': { AUTHORIZED: ['AUTHORIZED'] },
};

describe('NFC-e: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  it('a refused cancel is the 409 the route answered before the table: NFCE_<status>, "The NFC-e is … ; cannot cancel"', () => {
    expect(() => assertAllowed({ status: 'CANCELLED' }, 'cancel'))
      .to.throw('The NFC-e is CANCELLED; cannot cancel')
      .that.satisfies((e: any) => e.code === 'NFCE_CANCELLED' && e.kind === 'conflict');
  });

  for (const action of Object.keys(EXPECTED) as NfceAction[]) {
    for (const status of STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 NFCE_${status}`}`, () => {
        const note = { status };
        expect(canDo(note, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(note, action))
            .to.throw()
            .that.satisfies((e: any) => e.code === `NFCE_${status}` && e.extensions.currentStatus === status);
          return;
        }
        for (const to of STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(note, action, to)).not.to.throw();
          else expect(() => assertTransition(note, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }
});
