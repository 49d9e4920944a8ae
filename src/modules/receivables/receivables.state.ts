import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { Receivable, ReceivableStatus } from './entities/receivable.entity';

/*
 * The state machine of receivables (SPEC §13), as payables.state.ts. The status follows what is
 * settled (receivables.rules statusFor); the table says which moves an action may make:
 *
 *   OPEN → PARTIALLY_RECEIVED → RECEIVED by receipts; a reversal moves back towards OPEN;
 *   OPEN → CANCELLED when its fiscal document is cancelled, or when a return credits all of it;
 *   a return's credit reduces the open balance of OPEN and PARTIALLY_RECEIVED ones;
 *   a charge (boleto, Pix) is issued for OPEN and PARTIALLY_RECEIVED ones, their status unchanged.
 */
export type ReceivableAction = 'receive' | 'reverse-receipt' | 'cancel' | 'credit' | 'collect';

export const RECEIVABLE_STATUSES: ReceivableStatus[] = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'];

export const TRANSITIONS: Record<ReceivableAction, ActionRule<ReceivableStatus>> = {
  receive: { from: { OPEN: ['PARTIALLY_RECEIVED', 'RECEIVED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] }, verb: 'receive' },
  'reverse-receipt': {
    from: { PARTIALLY_RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'], RECEIVED: ['OPEN', 'PARTIALLY_RECEIVED'] },
    verb: 'reverse a receipt of',
  },
  cancel: { from: { OPEN: ['CANCELLED'] }, verb: 'cancel' },
  credit: { from: { OPEN: ['OPEN', 'CANCELLED'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED', 'RECEIVED'] }, verb: 'credit' },
  collect: { from: { OPEN: ['OPEN'], PARTIALLY_RECEIVED: ['PARTIALLY_RECEIVED'] }, verb: 'collect' },
};

/** Statuses with something still to receive. */
export const UNSETTLED: ReceivableStatus[] = Object.keys(TRANSITIONS.receive.from) as ReceivableStatus[];

/** The code of a refused action, by the receivable's current status (RECEIVABLE_ALREADY_RECEIVED, RECEIVABLE_CANCELLED …). */
export const conflictCode = (status: ReceivableStatus) => (status === 'RECEIVED' ? 'RECEIVABLE_ALREADY_RECEIVED' : `RECEIVABLE_${status}`);

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  ReceivableStatus,
  ReceivableAction,
  Pick<Receivable, 'status'>
>({
  resource: 'Receivable',
  transitions: TRANSITIONS,
  conflictCode,
});

/** Whether a charge (boleto, Pix) may be issued for the receivable: something is still to receive. */
export const canCollect = (r: Pick<Receivable, 'status'>) => canDo(r, 'collect');
