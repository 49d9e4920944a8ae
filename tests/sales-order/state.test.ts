import { expect } from 'chai';
import type { SalesOrderStatus, SalesOrderType } from '../../src/modules/sales-order/entities/sales-order.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  RETURNABLE_STATUSES,
  SalesOrderAction,
  TRANSITIONS,
} from '../../src/modules/sales-order/sales-order.state';

/** The transition table of SPEC §6, every action against every type and status, without a database. */
const STATUSES: SalesOrderStatus[] = ['OPEN', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED', 'CLOSED', 'GROUPED'];
const TYPES: SalesOrderType[] = ['ORDER', 'QUOTE'];
const ACTIVE: SalesOrderStatus[] = ['OPEN', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CLOSED'];

const EXPECTED: Record<SalesOrderAction, { types: SalesOrderType[]; from: Partial<Record<SalesOrderStatus, SalesOrderStatus[]>> }> = {
  edit: { types: ['ORDER', 'QUOTE'], from: { OPEN: ['OPEN'] } },
  delete: { types: ['ORDER', 'QUOTE'], from: { OPEN: [] } },
  'assign-customer': { types: ['ORDER', 'QUOTE'], from: Object.fromEntries(ACTIVE.map((s) => [s, [s]])) },
  group: { types: ['ORDER'], from: { OPEN: ['GROUPED'] } },
  fulfill: {
    types: ['ORDER'],
    from: { OPEN: ['PARTIALLY_FULFILLED', 'FULFILLED'], PARTIALLY_FULFILLED: ['PARTIALLY_FULFILLED', 'FULFILLED'] },
  },
  cancel: { types: ['ORDER', 'QUOTE'], from: { OPEN: ['CANCELLED'], PARTIALLY_FULFILLED: ['CLOSED'] } },
  'convert-quote': { types: ['QUOTE'], from: { OPEN: ['OPEN'] } },
  'convert-order-to-quote': { types: ['ORDER'], from: { OPEN: ['OPEN'] } },
  return: { types: ['ORDER'], from: { PARTIALLY_FULFILLED: ['PARTIALLY_FULFILLED'], FULFILLED: ['FULFILLED'], CLOSED: ['CLOSED'] } },
};

describe('Sales orders: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as SalesOrderAction[]) {
    for (const type of TYPES) {
      for (const status of STATUSES) {
        const allowed = EXPECTED[action].types.includes(type) ? EXPECTED[action].from[status] : undefined;
        it(`${action} of a ${type} ${status}: ${allowed ? `allowed → ${allowed.join(', ') || '(removed)'}` : '409'}`, () => {
          const order = { type, status };
          expect(canDo(order, action)).to.equal(!!allowed);
          if (!allowed) {
            const expectedCode = !EXPECTED[action].types.includes(type)
              ? 'INVALID_TYPE_FOR_ACTION'
              : action === 'cancel' && status === 'FULFILLED'
                ? 'SALES_ORDER_FULFILLED'
                : 'INVALID_STATUS_TRANSITION';
            expect(() => assertAllowed(order, action))
              .to.throw()
              .that.satisfies((e: any) => e.code === expectedCode && e.extensions.currentStatus === status);
            return;
          }
          expect(() => assertAllowed(order, action)).not.to.throw();
          for (const to of STATUSES) {
            if (allowed.includes(to)) expect(() => assertTransition(order, action, to)).not.to.throw();
            else expect(() => assertTransition(order, action, to)).to.throw(/not in the table/);
          }
        });
      }
    }
  }

  it('actions that need nothing fulfilled refuse an order with fulfilments (409 SALES_ORDER_HAS_FULFILLMENTS)', () => {
    for (const action of ['edit', 'delete', 'group', 'convert-order-to-quote'] as SalesOrderAction[]) {
      expect(() => assertAllowed({ type: 'ORDER', status: 'OPEN' }, action, true), action)
        .to.throw()
        .that.satisfies((e: any) => e.code === 'SALES_ORDER_HAS_FULFILLMENTS');
    }
    expect(() => assertAllowed({ type: 'ORDER', status: 'OPEN' }, 'fulfill', true)).not.to.throw();
  });

  it('returnable statuses are the ones the return action starts from', () => {
    expect([...RETURNABLE_STATUSES].sort()).to.deep.equal(['CLOSED', 'FULFILLED', 'PARTIALLY_FULFILLED']);
  });
});
