import { ConflictError } from '../../core/errors';
import { ActionRule as StatusRule, defineStateMachine } from '../../core/state-machine';
import type { SalesOrder, SalesOrderStatus, SalesOrderType } from './entities/sales-order.entity';

/*
 * The state machine of SPEC §6, in one place. Every use case names its action; the table says which
 * types and statuses allow it and which statuses it may lead to. Services check here before working
 * and then change status with a conditional UPDATE (status and version as read), so two concurrent
 * actions cannot both win.
 *
 *   ORDER: OPEN → PARTIALLY_FULFILLED → FULFILLED;  OPEN → CANCELLED;  OPEN → GROUPED;
 *          PARTIALLY_FULFILLED → CLOSED (remainder cancelled)
 *   QUOTE: OPEN → CANCELLED;  OPEN ⇄ ORDER OPEN by conversion (same id and code)
 */
export type SalesOrderAction =
  'edit' | 'delete' | 'assign-customer' | 'group' | 'fulfill' | 'cancel' | 'convert-quote' | 'convert-order-to-quote' | 'return';

interface ActionRule extends StatusRule<SalesOrderStatus> {
  types: SalesOrderType[];
  /** Only while nothing of the order has been fulfilled. */
  nothingFulfilled?: boolean;
}

const ACTIVE: SalesOrderStatus[] = ['OPEN', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CLOSED'];

export const TRANSITIONS: Record<SalesOrderAction, ActionRule> = {
  edit: { from: { OPEN: ['OPEN'] }, types: ['ORDER', 'QUOTE'], nothingFulfilled: true, verb: 'edit it' },
  delete: { from: { OPEN: [] }, types: ['ORDER', 'QUOTE'], nothingFulfilled: true, verb: 'delete it' },
  'assign-customer': { from: Object.fromEntries(ACTIVE.map((s) => [s, [s]])), types: ['ORDER', 'QUOTE'], verb: 'assign a customer' },
  group: { from: { OPEN: ['GROUPED'] }, types: ['ORDER'], nothingFulfilled: true, verb: 'group it' },
  fulfill: {
    from: { OPEN: ['PARTIALLY_FULFILLED', 'FULFILLED'], PARTIALLY_FULFILLED: ['PARTIALLY_FULFILLED', 'FULFILLED'] },
    types: ['ORDER'],
    verb: 'fulfill it',
  },
  cancel: { from: { OPEN: ['CANCELLED'], PARTIALLY_FULFILLED: ['CLOSED'] }, types: ['ORDER', 'QUOTE'], verb: 'cancel it' },
  'convert-quote': { from: { OPEN: ['OPEN'] }, types: ['QUOTE'], verb: 'convert it to an order' },
  'convert-order-to-quote': { from: { OPEN: ['OPEN'] }, types: ['ORDER'], nothingFulfilled: true, verb: 'convert it to a quote' },
  // Goods delivered come back through the returns module; the order keeps its status.
  return: {
    from: { PARTIALLY_FULFILLED: ['PARTIALLY_FULFILLED'], FULFILLED: ['FULFILLED'], CLOSED: ['CLOSED'] },
    types: ['ORDER'],
    verb: 'return goods of it',
  },
};

/** The statuses of an ORDER whose delivered goods can be returned (the returns module filters by them). */
export const RETURNABLE_STATUSES = Object.keys(TRANSITIONS.return.from) as SalesOrderStatus[];

const RESOURCE = 'Sales order';
type OrderState = Pick<SalesOrder, 'status' | 'type'>;

const machine = defineStateMachine<SalesOrderStatus, SalesOrderAction, OrderState>({
  resource: RESOURCE,
  transitions: TRANSITIONS,
  allows: (order, action) => TRANSITIONS[action].types.includes(order.type),
  refusal: (order, action) => {
    if (action === 'cancel' && order.status === 'FULFILLED') {
      return new ConflictError(
        'SALES_ORDER_FULFILLED',
        'Sales order is FULFILLED; its goods come back through returns (POST /api/returns/{filialId})',
        {
          currentStatus: order.status,
          see: '/api/returns',
        },
      );
    }
    const rule = TRANSITIONS[action];
    if (rule.types.includes(order.type)) return undefined;
    return new ConflictError('INVALID_TYPE_FOR_ACTION', `${RESOURCE} is a ${order.type} (${order.status}); cannot ${rule.verb}`, {
      currentStatus: order.status,
      currentType: order.type,
    });
  },
});

export const { canDo, forbidden, assertTransition } = machine;

/** Throws the 409 unless `action` is allowed for the order as it is now (and, where the table says so, nothing was fulfilled). */
export function assertAllowed(order: OrderState, action: SalesOrderAction, anythingFulfilled = false): void {
  machine.assertAllowed(order, action);
  const rule = TRANSITIONS[action];
  if (rule.nothingFulfilled && anythingFulfilled) {
    throw new ConflictError('SALES_ORDER_HAS_FULFILLMENTS', `Sales order has fulfilled items; cannot ${rule.verb}`, {
      currentStatus: order.status,
    });
  }
}
