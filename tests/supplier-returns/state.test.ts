import { expect } from 'chai';
import type { SupplierReturnStatus } from '../../src/modules/supplier-returns/entities/supplier-return.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  LIVE_STATUSES,
  SUPPLIER_RETURN_STATUSES,
  SupplierReturnAction,
  TRANSITIONS,
} from '../../src/modules/supplier-returns/supplier-returns.state';

/** The transition table of supplier returns, every action against every status, without a database. */
const EXPECTED: Record<SupplierReturnAction, Partial<Record<SupplierReturnStatus, SupplierReturnStatus[]>>> = {
  authorize: { ISSUED: ['AUTHORIZED'], REJECTED: ['AUTHORIZED'] },
  reject: { ISSUED: ['REJECTED'], REJECTED: ['REJECTED'] },
  deny: { ISSUED: ['DENIED'], REJECTED: ['DENIED'] },
  void: { REJECTED: ['VOIDED'] },
  fail: { ISSUED: ['FAILED'] },
  cancel: { AUTHORIZED: ['CANCELLED'] },
};

describe('Supplier returns: the transition table (unit)', () => {
  it('names every action and nothing else; the live statuses hold the quantities', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
    expect(LIVE_STATUSES).to.deep.equal(['ISSUED', 'REJECTED', 'AUTHORIZED']);
  });

  for (const action of Object.keys(EXPECTED) as SupplierReturnAction[]) {
    for (const status of SUPPLIER_RETURN_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 SUPPLIER_RETURN_${status}`}`, () => {
        const ret = { status };
        expect(canDo(ret, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(ret, action))
            .to.throw()
            .that.satisfies((e: any) => e.code === `SUPPLIER_RETURN_${status}`);
          return;
        }
        for (const to of SUPPLIER_RETURN_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(ret, action, to)).not.to.throw();
          else expect(() => assertTransition(ret, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }
});
