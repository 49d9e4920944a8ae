import { StateConflictError } from '../../core/errors';
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

interface ActionRule {
  /** Status → the statuses the action may leave the CT-e in. */
  from: Partial<Record<CteStatus, CteStatus[]>>;
  /** Human wording for the 409. */
  verb: string;
}

export const TRANSITIONS: Record<CteAction, ActionRule> = {
  apportion: { from: { RECEIVED: ['APPORTIONED'] }, verb: 'apportion' },
  cancel: { from: { RECEIVED: ['CANCELLED'], APPORTIONED: ['CANCELLED'] }, verb: 'cancel' },
};

type WithStatus = Pick<Cte, 'status'>;

export const canDo = (cte: WithStatus, action: CteAction): boolean => cte.status in TRANSITIONS[action].from;

/** The code of a refused action: it names the CT-e's current status. */
export const conflictCode = (status: CteStatus) => `CTE_${status}`;

/** The 409 of a forbidden action, naming the current status. */
export const forbidden = (cte: WithStatus, action: CteAction): StateConflictError => new StateConflictError('CT-e', cte.status, TRANSITIONS[action].verb, conflictCode(cte.status));

/** Throws the 409 unless `action` is allowed for the CT-e as it is now. */
export function assertAllowed(cte: WithStatus, action: CteAction): void {
  if (!canDo(cte, action)) throw forbidden(cte, action);
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(cte: WithStatus, action: CteAction, to: CteStatus): void {
  assertAllowed(cte, action);
  const targets = TRANSITIONS[action].from[cte.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${cte.status} → ${to} is not in the table for ${action}`);
}
