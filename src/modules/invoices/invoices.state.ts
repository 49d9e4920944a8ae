import { StateConflictError } from '../../core/errors';
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

interface ActionRule {
  from: Partial<Record<OutboundNfeStatus, OutboundNfeStatus[]>>;
  verb: string;
}

export const TRANSITIONS: Record<InvoiceAction, ActionRule> = {
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

type WithStatus = Pick<OutboundNfe, 'status'>;

export const canDo = (doc: WithStatus, action: InvoiceAction): boolean => doc.status in TRANSITIONS[action].from;

export const conflictCode = (status: OutboundNfeStatus) => `INVOICE_${status}`;

export const forbidden = (doc: WithStatus, action: InvoiceAction): StateConflictError => new StateConflictError('NF-e', doc.status, TRANSITIONS[action].verb, conflictCode(doc.status));

export function assertAllowed(doc: WithStatus, action: InvoiceAction): void {
  if (!canDo(doc, action)) throw forbidden(doc, action);
}

export function assertTransition(doc: WithStatus, action: InvoiceAction, to: OutboundNfeStatus): void {
  assertAllowed(doc, action);
  const targets = TRANSITIONS[action].from[doc.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${doc.status} → ${to} is not in the table for ${action}`);
}
