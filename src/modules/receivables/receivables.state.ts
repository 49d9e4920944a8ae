import { StateConflictError } from '../../core/errors';
import type { Receivable, ReceivableStatus } from './entities/receivable.entity';

/*
 * The state machine of receivables (SPEC §13), as payables.state.ts. The status follows what is
 * settled (receivables.rules statusFor); the table says which moves an action may make:
 *
 *   OPEN → PARTIALLY_RECEIVED → RECEIVED by receipts; a reversal moves back towards OPEN;
 *   OPEN → CANCELLED when its fiscal document is cancelled, or when a return credits all of it;
 *   a return's credit reduces the open balance of OPEN and PARTIALLY_RECEIVED ones.
 */
export type ReceivableAction = 'receive' | 'reverse-receipt' | 'cancel' | 'credit';

export const RECEIVABLE_STATUSES: ReceivableStatus[] = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'];

interface ActionRule {
  /** Status → the statuses the action may leave the receivable in. */
  from: Partial<Record<ReceivableStatus, ReceivableStatus[]>>;
  /** Human wording for the 409. */
  verb: string;
}

export const TRANSITIONS: Record<ReceivableAction, ActionRule> = {
  receive: { from: { OPEN: ['PARTIALLY_RECEIVED', 'RECEIVED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] }, verb: 'receive' },
  'reverse-receipt': { from: { PARTIALLY_RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'], RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'] }, verb: 'reverse a receipt of' },
  cancel: { from: { OPEN: ['CANCELLED'] }, verb: 'cancel' },
  credit: { from: { OPEN: ['OPEN', 'CANCELLED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] }, verb: 'credit' },
};

/** Statuses with something still to receive. */
export const UNSETTLED: ReceivableStatus[] = Object.keys(TRANSITIONS.receive.from) as ReceivableStatus[];

type WithStatus = Pick<Receivable, 'status'>;

export const canDo = (r: WithStatus, action: ReceivableAction): boolean => r.status in TRANSITIONS[action].from;

/** The code of a refused action, by the receivable's current status (RECEIVABLE_ALREADY_RECEIVED, RECEIVABLE_CANCELLED …). */
export const conflictCode = (status: ReceivableStatus) => (status === 'RECEIVED' ? 'RECEIVABLE_ALREADY_RECEIVED' : `RECEIVABLE_${status}`);

export const forbidden = (r: WithStatus, action: ReceivableAction): StateConflictError => new StateConflictError('Receivable', r.status, TRANSITIONS[action].verb, conflictCode(r.status));

/** Throws the 409 unless `action` is allowed for the receivable as it is now. */
export function assertAllowed(r: WithStatus, action: ReceivableAction): void {
  if (!canDo(r, action)) throw forbidden(r, action);
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(r: WithStatus, action: ReceivableAction, to: ReceivableStatus): void {
  assertAllowed(r, action);
  const targets = TRANSITIONS[action].from[r.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${r.status} → ${to} is not in the table for ${action}`);
}
