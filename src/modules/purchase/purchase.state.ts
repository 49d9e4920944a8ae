import { StateConflictError } from '../../core/errors';
import type { PurchaseOrder, PurchaseOrderStatus } from './entities/purchase-order.entity';

/*
 * The state machine of SPEC §9, in one place. Every use case names its action; the table says from
 * which statuses it is allowed and which statuses it may lead to. Services check here before working
 * and then change status with a conditional UPDATE (status and version as read), so two concurrent
 * actions cannot both win.
 *
 *   DRAFT → APPROVED → PARTIALLY_RECEIVED → RECEIVED;  DRAFT/APPROVED → CANCELLED;
 *   PARTIALLY_RECEIVED → CLOSED (the rest will not come).
 * Receipts move APPROVED/PARTIALLY_RECEIVED/RECEIVED forward (RECEIVED stays RECEIVED when an
 * over-receipt within tolerance arrives); a cancelled entry document reverts its receipts and moves
 * the order back (a CLOSED order stays CLOSED: what is taken back is not expected any more).
 */
export type PurchaseOrderAction = 'edit' | 'delete' | 'approve' | 'cancel' | 'close' | 'receive' | 'revert-receipt';

export const PURCHASE_ORDER_STATUSES: PurchaseOrderStatus[] = ['DRAFT', 'APPROVED', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED', 'CLOSED'];

interface ActionRule {
  /** Status → the statuses the action may leave the order in. */
  from: Partial<Record<PurchaseOrderStatus, PurchaseOrderStatus[]>>;
  /** Human wording for the 409. */
  verb: string;
}

export const TRANSITIONS: Record<PurchaseOrderAction, ActionRule> = {
  edit: { from: { DRAFT: ['DRAFT'] }, verb: 'edit it' },
  delete: { from: { DRAFT: [] }, verb: 'delete it (cancel it instead)' },
  approve: { from: { DRAFT: ['APPROVED'] }, verb: 'approve it' },
  cancel: { from: { DRAFT: ['CANCELLED'], APPROVED: ['CANCELLED'] }, verb: 'cancel it' },
  close: { from: { PARTIALLY_RECEIVED: ['CLOSED'] }, verb: 'close it' },
  receive: {
    from: {
      APPROVED: ['PARTIALLY_RECEIVED', 'RECEIVED'],
      PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'],
      RECEIVED: ['RECEIVED'],
    },
    verb: 'receive goods against it',
  },
  'revert-receipt': {
    from: {
      PARTIALLY_RECEIVED: ['APPROVED', 'PARTIALLY_RECEIVED'],
      RECEIVED: ['APPROVED', 'PARTIALLY_RECEIVED', 'RECEIVED'],
      CLOSED: ['CLOSED'],
    },
    verb: 'revert a receipt',
  },
};

/** Hints for the statuses an action is refused in most often. */
const HINTS: Partial<Record<PurchaseOrderAction, Partial<Record<PurchaseOrderStatus, string>>>> = {
  cancel: { PARTIALLY_RECEIVED: 'close it instead (POST /api/purchase/{id}/close)', RECEIVED: 'its goods were received' },
  edit: { APPROVED: 'only a DRAFT is editable' },
};

export const canDo = (order: Pick<PurchaseOrder, 'status'>, action: PurchaseOrderAction): boolean => order.status in TRANSITIONS[action].from;

/** The 409 of a forbidden action, naming the current status. */
export function forbidden(order: Pick<PurchaseOrder, 'status'>, action: PurchaseOrderAction): StateConflictError {
  const hint = HINTS[action]?.[order.status];
  return new StateConflictError('Purchase order', order.status, hint ? `${TRANSITIONS[action].verb}; ${hint}` : TRANSITIONS[action].verb);
}

/** Throws the 409 unless `action` is allowed for the order as it is now. */
export function assertAllowed(order: Pick<PurchaseOrder, 'status'>, action: PurchaseOrderAction): void {
  if (!canDo(order, action)) throw forbidden(order, action);
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(order: Pick<PurchaseOrder, 'status'>, action: PurchaseOrderAction, to: PurchaseOrderStatus): void {
  assertAllowed(order, action);
  const targets = TRANSITIONS[action].from[order.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${order.status} → ${to} is not in the table for ${action}`);
}
