import { StateConflictError } from '../../core/errors';
import type { Payable, PayableStatus } from './entities/payable.entity';

/*
 * The state machine of payables (SPEC §3), in one place, as sales-order.state.ts. The status follows
 * the paid amount (payments.service statusFor); the table says which moves an action may make:
 *
 *   OPEN → PARTIALLY_PAID → PAID by payments; a reversal moves back towards OPEN;
 *   OPEN → CANCELLED when its entry document or CT-e is cancelled (a paid one blocks that cancel).
 */
export type PayableAction = 'pay' | 'reverse-payment' | 'cancel';

export const PAYABLE_STATUSES: PayableStatus[] = ['OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'];

interface ActionRule {
  /** Status → the statuses the action may leave the payable in. */
  from: Partial<Record<PayableStatus, PayableStatus[]>>;
  /** Human wording for the 409. */
  verb: string;
}

export const TRANSITIONS: Record<PayableAction, ActionRule> = {
  pay: { from: { OPEN: ['PARTIALLY_PAID', 'PAID'], PARTIALLY_PAID: ['PARTIALLY_PAID', 'PAID'] }, verb: 'pay' },
  'reverse-payment': { from: { OPEN: ['OPEN'], PARTIALLY_PAID: ['OPEN', 'PARTIALLY_PAID'], PAID: ['OPEN', 'PARTIALLY_PAID'] }, verb: 'reverse a payment of' },
  cancel: { from: { OPEN: ['CANCELLED'] }, verb: 'cancel' },
};

type WithStatus = Pick<Payable, 'status'>;

export const canDo = (payable: WithStatus, action: PayableAction): boolean => payable.status in TRANSITIONS[action].from;

/** The code of a refused action, by the payable's current status (PAYABLE_ALREADY_PAID, PAYABLE_CANCELLED …). */
export const conflictCode = (status: PayableStatus) => (status === 'PAID' ? 'PAYABLE_ALREADY_PAID' : `PAYABLE_${status}`);

/** The 409 of a forbidden action, naming the current status. */
export const forbidden = (payable: WithStatus, action: PayableAction): StateConflictError =>
  new StateConflictError('Payable', payable.status, TRANSITIONS[action].verb, conflictCode(payable.status));

/** Throws the 409 unless `action` is allowed for the payable as it is now. */
export function assertAllowed(payable: WithStatus, action: PayableAction): void {
  if (!canDo(payable, action)) throw forbidden(payable, action);
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(payable: WithStatus, action: PayableAction, to: PayableStatus): void {
  assertAllowed(payable, action);
  const targets = TRANSITIONS[action].from[payable.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${payable.status} → ${to} is not in the table for ${action}`);
}
