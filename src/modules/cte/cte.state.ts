import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { Cte, CteStatus } from './entities/cte.entity';

/*
 * The state machine of CT-e records (SPEC §4b), in one place, as sales-order.state.ts:
 *
 *   RECEIVED → APPORTIONED (freight taken into entry documents);  RECEIVED/APPORTIONED → CANCELLED.
 *
 * A refused action is a 409 whose code names the current status (CTE_APPORTIONED, CTE_CANCELLED).
 */
export type CteAction = 'apportion' | 'cancel';

export const CTE_STATUSES: CteStatus[] = ['RECEIVED', 'APPORTIONED', 'CANCELLED'];

export const TRANSITIONS: Record<CteAction, ActionRule<CteStatus>> = {
  apportion: { from: { RECEIVED: ['APPORTIONED'] }, verb: 'apportion' },
  cancel: { from: { RECEIVED: ['CANCELLED'], APPORTIONED: ['CANCELLED'] }, verb: 'cancel' },
};

/** The code of a refused action: it names the CT-e's current status. */
export const conflictCode = (status: CteStatus) => `CTE_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<CteStatus, CteAction, Pick<Cte, 'status'>>({
  resource: 'CT-e',
  transitions: TRANSITIONS,
  conflictCode,
});
