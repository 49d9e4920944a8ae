import { expect } from 'chai';
import type { PurchaseOrderStatus } from '../../src/modules/purchase/entities/purchase-order.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  PURCHASE_ORDER_STATUSES,
  PurchaseOrderAction,
  TRANSITIONS,
} from '../../src/modules/purchase/purchase.state';
import { receivingStatus } from '../../src/modules/purchase/purchase.lines';
import { Dec } from '../../src/core/decimal';

/** The transition table of SPEC §9, every action against every status, without a database. */
const EXPECTED: Record<PurchaseOrderAction, Partial<Record<PurchaseOrderStatus, PurchaseOrderStatus[]>>> = {
  edit: { DRAFT: ['DRAFT'] },
  delete: { DRAFT: [] },
  approve: { DRAFT: ['APPROVED'] },
  cancel: { DRAFT: ['CANCELLED'], APPROVED: ['CANCELLED'] },
  close: { PARTIALLY_RECEIVED: ['CLOSED'] },
  receive: { APPROVED: ['PARTIALLY_RECEIVED', 'RECEIVED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'], RECEIVED: ['RECEIVED'] },
  'revert-receipt': {
    PARTIALLY_RECEIVED: ['APPROVED', 'PARTIALLY_RECEIVED'],
    RECEIVED: ['APPROVED', 'PARTIALLY_RECEIVED', 'RECEIVED'],
    CLOSED: ['CLOSED'],
  },
};

describe('Purchase orders: the transition table (unit)', () => {
  it('names every action of the spec and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as PurchaseOrderAction[]) {
    for (const status of PURCHASE_ORDER_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ') || '(removed)'}` : '409 naming the status'}`, () => {
        const order = { status };
        expect(canDo(order, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(order, action))
            .to.throw()
            .that.satisfies(
              (e: any) => e.code === 'INVALID_STATUS_TRANSITION' && e.extensions.currentStatus === status && e.message.includes(status),
            );
          return;
        }
        expect(() => assertAllowed(order, action)).not.to.throw();
        for (const to of PURCHASE_ORDER_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(order, action, to)).not.to.throw();
          else expect(() => assertTransition(order, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }

  it('cancel of a PARTIALLY_RECEIVED order points at close', () => {
    expect(() => assertAllowed({ status: 'PARTIALLY_RECEIVED' }, 'cancel')).to.throw(/close it instead/);
  });

  it('receivingStatus: nothing received → APPROVED; all done → RECEIVED; else PARTIALLY_RECEIVED; CLOSED stays', () => {
    const line = (q: string, r: string, c = '0') => ({ quantity: new Dec(q), receivedQuantity: new Dec(r), cancelledQuantity: new Dec(c) });
    expect(receivingStatus('PARTIALLY_RECEIVED', [line('10', '0'), line('5', '0')])).to.equal('APPROVED');
    expect(receivingStatus('APPROVED', [line('10', '4'), line('5', '0')])).to.equal('PARTIALLY_RECEIVED');
    expect(receivingStatus('APPROVED', [line('10', '10'), line('5', '6')])).to.equal('RECEIVED');
    expect(receivingStatus('RECEIVED', [line('10', '9.5')])).to.equal('PARTIALLY_RECEIVED');
    expect(receivingStatus('CLOSED', [line('10', '0', '10')])).to.equal('CLOSED');
  });
});
