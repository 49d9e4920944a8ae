import { ConflictError, StateConflictError } from '../../core/errors';
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
  | 'edit'
  | 'delete'
  | 'assign-customer'
  | 'group'
  | 'fulfill'
  | 'cancel'
  | 'convert-quote'
  | 'convert-order-to-quote'
  | 'return';

interface ActionRule {
  /** Status → the statuses the action may leave the order in. */
  from: Partial<Record<SalesOrderStatus, SalesOrderStatus[]>>;
  types: SalesOrderType[];
  /** Only while nothing of the order has been fulfilled. */
  nothingFulfilled?: boolean;
  /** Human wording for the 409. */
  verb: string;
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
  return: { from: { PARTIALLY_FULFILLED: ['PARTIALLY_FULFILLED'], FULFILLED: ['FULFILLED'], CLOSED: ['CLOSED'] }, types: ['ORDER'], verb: 'return goods of it' },
};

/** The statuses of an ORDER whose delivered goods can be returned (the returns module filters by them). */
export const RETURNABLE_STATUSES = Object.keys(TRANSITIONS.return.from) as SalesOrderStatus[];

const RESOURCE = 'Sales order';

/** The conflict of a forbidden action, naming the current status (and type). */
export function forbidden(order: Pick<SalesOrder, 'status' | 'type'>, action: SalesOrderAction): ConflictError {
  if (action === 'cancel' && order.status === 'FULFILLED') {
    return new ConflictError('SALES_ORDER_FULFILLED', 'Sales order is FULFILLED; its goods come back through returns (POST /api/returns/{filialId})', {
      currentStatus: order.status,
      see: '/api/returns',
    });
  }
  const rule = TRANSITIONS[action];
  if (!rule.types.includes(order.type)) {
    return new ConflictError('INVALID_TYPE_FOR_ACTION', `${RESOURCE} is a ${order.type} (${order.status}); cannot ${rule.verb}`, {
      currentStatus: order.status,
      currentType: order.type,
    });
  }
  return new StateConflictError(RESOURCE, order.status, rule.verb);
}

/** Throws the 409 unless `action` is allowed for the order as it is now. */
export function assertAllowed(order: Pick<SalesOrder, 'status' | 'type'>, action: SalesOrderAction, anythingFulfilled = false): void {
  const rule = TRANSITIONS[action];
  if (!rule.types.includes(order.type) || !(order.status in rule.from)) throw forbidden(order, action);
  if (rule.nothingFulfilled && anythingFulfilled) {
    throw new ConflictError('SALES_ORDER_HAS_FULFILLMENTS', `Sales order has fulfilled items; cannot ${rule.verb}`, { currentStatus: order.status });
  }
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(order: Pick<SalesOrder, 'status' | 'type'>, action: SalesOrderAction, to: SalesOrderStatus): void {
  assertAllowed(order, action);
  const targets = TRANSITIONS[action].from[order.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${order.status} → ${to} is not in the table for ${action}`);
}

export function canDo(order: Pick<SalesOrder, 'status' | 'type'>, action: SalesOrderAction): boolean {
  const rule = TRANSITIONS[action];
  return rule.types.includes(order.type) && order.status in rule.from;
}
