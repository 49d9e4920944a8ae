import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { NfceDocument, NfceStatus } from './entities/nfce-document.entity';

/*
 * The state machine of an NFC-e (SPEC §12.4), on core/state-machine.ts as the other documents:
 *
 *   SIGNED → AUTHORIZED | REJECTED            (the authority's answer to the synchronous attempt, or the key consulted)
 *   SIGNED → CONTINGENCY                      (no answer in time: re-signed offline, tpEmis 9)
 *   CONTINGENCY → AUTHORIZED | REJECTED       (the queue transmits the offline note)
 *   AUTHORIZED → CANCELLED                    (110111, within the UF's window)
 *   AUTHORIZED → AUTHORIZED                   (its online attempt settled: substituted 110112 or voided)
 *
 * A note is born SIGNED (online) or CONTINGENCY (offline from the start). A refused action is a 409
 * whose code names the current status (NFCE_CANCELLED, NFCE_CONTINGENCY …).
 */
export type NfceAction = 'record' | 'contingency' | 'cancel' | 'settle-original';

export const TRANSITIONS: Record<NfceAction, ActionRule<NfceStatus>> = {
  record: { from: { SIGNED: ['AUTHORIZED', 'REJECTED'], CONTINGENCY: ['AUTHORIZED', 'REJECTED'] }, verb: 'record the answer of' },
  contingency: { from: { SIGNED: ['CONTINGENCY'] }, verb: 'issue in offline contingency' },
  cancel: { from: { AUTHORIZED: ['CANCELLED'] }, verb: 'cancel' },
  'settle-original': { from: { AUTHORIZED: ['AUTHORIZED'] }, verb: 'settle its online attempt' },
};

export const conflictCode = (status: NfceStatus) => `NFCE_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  NfceStatus,
  NfceAction,
  Pick<NfceDocument, 'status'>
>({
  // The 409 reads "The NFC-e is CANCELLED; cannot cancel", as the routes answered before the table.
  resource: 'The NFC-e',
  transitions: TRANSITIONS,
  conflictCode,
});
