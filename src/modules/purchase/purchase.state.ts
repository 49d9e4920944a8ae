import { StateConflictError } from '../../core/errors';
import { ActionRule, defineStateMachine } from '../../core/state-machine';
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
 * the order back (a CLOSED order stays CLOSED: what is taken back is not expected any more). A
 * supplier return takes its quantity back as a reverted receipt; cancelling the return receives it again
 * (on a CLOSED order, which receives nothing new, both are a receipt's correction: revert-receipt).
 */
export type PurchaseOrderAction = 'edit' | 'delete' | 'approve' | 'cancel' | 'close' | 'receive' | 'revert-receipt';

export const PURCHASE_ORDER_STATUSES: PurchaseOrderStatus[] = [
  'DRAFT',
  'APPROVED',
  'PARTIALLY_RECEIVED',
  'RECEIVED',
  'CANCELLED',
  'CLOSED',
];

export const TRANSITIONS: Record<PurchaseOrderAction, ActionRule<PurchaseOrderStatus>> = {
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

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  PurchaseOrderStatus,
  PurchaseOrderAction,
  Pick<PurchaseOrder, 'status'>
>({
  resource: 'Purchase order',
  transitions: TRANSITIONS,
  refusal: (order, action) => {
    const hint = HINTS[action]?.[order.status];
    return hint ? new StateConflictError('Purchase order', order.status, `${TRANSITIONS[action].verb}; ${hint}`) : undefined;
  },
});
