import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';

/*
 * The state machine of an outbound NF-e (SPEC §12.2), in one place:
 *
 *   SIGNED → SENT → AUTHORIZED | REJECTED | DENIED          (the authority's answer, or the key consulted)
 *   SENT → SIGNED                                           (the authority was down: rebuilt in contingency, same number)
 *   REJECTED → SIGNED                                       (corrected and re-sent with the same number)
 *   REJECTED → VOIDED                                       (its number voided at the authority)
 *   AUTHORIZED → CANCELLED (110111);  AUTHORIZED → AUTHORIZED (110110 carta de correção)
 *   REJECTED | DENIED → itself                              (withdrawn: it gives the sale's claim back to its first attempt)
 *
 * A refused action is a 409 whose code names the current status (INVOICE_AUTHORIZED, …).
 */
export type InvoiceAction = 'send' | 'record' | 'contingency' | 'resend' | 'void' | 'cancel' | 'correct' | 'withdraw';

export const INVOICE_STATUSES: OutboundNfeStatus[] = ['SIGNED', 'SENT', 'AUTHORIZED', 'REJECTED', 'DENIED', 'CANCELLED', 'VOIDED'];

export const TRANSITIONS: Record<InvoiceAction, ActionRule<OutboundNfeStatus>> = {
  send: { from: { SIGNED: ['SENT'], SENT: ['SENT'] }, verb: 'send' },
  record: { from: { SENT: ['AUTHORIZED', 'REJECTED', 'DENIED'] }, verb: 'record the answer of' },
  contingency: { from: { SENT: ['SIGNED'], SIGNED: ['SIGNED'] }, verb: 'issue in contingency' },
  resend: { from: { REJECTED: ['SIGNED'] }, verb: 'correct and re-send' },
  void: { from: { REJECTED: ['VOIDED'] }, verb: 'void the number of' },
  cancel: { from: { AUTHORIZED: ['CANCELLED'] }, verb: 'cancel' },
  correct: { from: { AUTHORIZED: ['AUTHORIZED'] }, verb: 'correct (CC-e)' },
  withdraw: { from: { REJECTED: ['REJECTED'], DENIED: ['DENIED'] }, verb: 'withdraw' },
};

/** Documents the authority may still be deciding: a crash leaves them to the recovery pass. */
export const UNSETTLED_STATUSES: OutboundNfeStatus[] = Object.keys(TRANSITIONS.send.from) as OutboundNfeStatus[];

export const conflictCode = (status: OutboundNfeStatus) => `INVOICE_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  OutboundNfeStatus,
  InvoiceAction,
  Pick<OutboundNfe, 'status'>
>({
  resource: 'NF-e',
  transitions: TRANSITIONS,
  conflictCode,
});
