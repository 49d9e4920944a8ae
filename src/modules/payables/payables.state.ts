import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { Payable, PayableStatus } from './entities/payable.entity';

/*
 * The state machine of payables (SPEC §3), in one place, as sales-order.state.ts. The status follows
 * the paid amount (payments.service statusFor); the table says which moves an action may make:
 *
 *   OPEN → PARTIALLY_PAID → PAID by payments; a reversal moves back towards OPEN;
 *   OPEN → CANCELLED when its entry document or CT-e is cancelled (a paid one blocks that cancel);
 *   a supplier return lowers what is owed (deduct): down to what was paid → PAID, to zero with nothing
 *   paid → CANCELLED; cancelling the return puts it back (restore), reopening what it settled.
 */
export type PayableAction = 'pay' | 'reverse-payment' | 'cancel' | 'deduct' | 'restore';

export const PAYABLE_STATUSES: PayableStatus[] = ['OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'];

export const TRANSITIONS: Record<PayableAction, ActionRule<PayableStatus>> = {
  pay: { from: { OPEN: ['PARTIALLY_PAID', 'PAID'], PARTIALLY_PAID: ['PARTIALLY_PAID', 'PAID'] }, verb: 'pay' },
  'reverse-payment': {
    from: { OPEN: ['OPEN'], PARTIALLY_PAID: ['OPEN', 'PARTIALLY_PAID'], PAID: ['OPEN', 'PARTIALLY_PAID'] },
    verb: 'reverse a payment of',
  },
  cancel: { from: { OPEN: ['CANCELLED'] }, verb: 'cancel' },
  deduct: { from: { OPEN: ['OPEN', 'CANCELLED'], PARTIALLY_PAID: ['PARTIALLY_PAID', 'PAID'] }, verb: 'deduct a return from' },
  restore: {
    from: { OPEN: ['OPEN'], PARTIALLY_PAID: ['PARTIALLY_PAID'], PAID: ['PARTIALLY_PAID', 'PAID'], CANCELLED: ['OPEN'] },
    verb: 'restore a deduction of',
  },
};

/** The code of a refused action, by the payable's current status (PAYABLE_ALREADY_PAID, PAYABLE_CANCELLED …). */
export const conflictCode = (status: PayableStatus) => (status === 'PAID' ? 'PAYABLE_ALREADY_PAID' : `PAYABLE_${status}`);

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  PayableStatus,
  PayableAction,
  Pick<Payable, 'status'>
>({
  resource: 'Payable',
  transitions: TRANSITIONS,
  conflictCode,
});
