import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { InventoryCount, InventoryCountStatus } from './entities/inventory-count.entity';

/*
 * The state machine of stock counts:  OPEN → CLOSED (adjusted and valued) · OPEN → CANCELLED.
 * Counting lines is allowed while OPEN. A refused action is a 409 naming the status (INVENTORY_COUNT_CLOSED…).
 */
export type InventoryCountAction = 'count' | 'close' | 'cancel';

export const TRANSITIONS: Record<InventoryCountAction, ActionRule<InventoryCountStatus>> = {
  count: { from: { OPEN: ['OPEN'] }, verb: 'count' },
  close: { from: { OPEN: ['CLOSED'] }, verb: 'close' },
  cancel: { from: { OPEN: ['CANCELLED'] }, verb: 'cancel' },
};

export const conflictCode = (status: InventoryCountStatus) => `INVENTORY_COUNT_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  InventoryCountStatus,
  InventoryCountAction,
  Pick<InventoryCount, 'status'>
>({
  resource: 'Stock count',
  transitions: TRANSITIONS,
  conflictCode,
});
