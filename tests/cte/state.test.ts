import { expect } from 'chai';
import type { CteStatus } from '../../src/modules/cte/entities/cte.entity';
import { assertAllowed, assertTransition, canDo, CTE_STATUSES, CteAction, TRANSITIONS } from '../../src/modules/cte/cte.state';

/** The transition table of CT-e records (SPEC §4b), every action against every status, without a database. */
const EXPECTED: Record<CteAction, Partial<Record<CteStatus, CteStatus[]>>> = {
  apportion: { RECEIVED: ['APPORTIONED'] },
  cancel: { RECEIVED: ['CANCELLED'], APPORTIONED: ['CANCELLED'] },
};

describe('CT-e: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as CteAction[]) {
    for (const status of CTE_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 CTE_${status}`}`, () => {
        const cte = { status };
        expect(canDo(cte, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(cte, action))
            .to.throw()
            .that.satisfies((e: any) => e.code === `CTE_${status}` && e.extensions.currentStatus === status);
          return;
        }
        expect(() => assertAllowed(cte, action)).not.to.throw();
        for (const to of CTE_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(cte, action, to)).not.to.throw();
          else expect(() => assertTransition(cte, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }
});
