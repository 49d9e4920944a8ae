import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { EntryDocument, EntryDocumentStatus } from './entities/entry-document.entity';

/*
 * The state machine of entry documents (SPEC §2), in one place. Every use case names its action; the
 * table says from which statuses it is allowed and which statuses it may lead to. Use cases check
 * here before working and then change status with a conditional UPDATE (status and version as read),
 * so two concurrent actions cannot both win.
 *
 *   DRAFT → CONFIRMED → CANCELLED;  DRAFT → CANCELLED (no postings);  DRAFT → deleted.
 *   CT-e freight is taken into (and given back from) a DRAFT or a CONFIRMED document; status stays.
 *
 * A refused action is a 409 whose code names the status the document is in:
 * ENTRY_DOCUMENT_CONFIRMED (SPEC §2: "a CONFIRMED one → 409 ENTRY_DOCUMENT_CONFIRMED") or
 * ENTRY_DOCUMENT_CANCELLED, whatever the action.
 */
export type EntryDocumentAction = 'edit' | 'delete' | 'confirm' | 'cancel' | 'apportion-freight';

export const ENTRY_DOCUMENT_STATUSES: EntryDocumentStatus[] = ['DRAFT', 'CONFIRMED', 'CANCELLED'];

export const TRANSITIONS: Record<EntryDocumentAction, ActionRule<EntryDocumentStatus>> = {
  edit: { from: { DRAFT: ['DRAFT'] }, verb: 'edit it' },
  delete: { from: { DRAFT: [] }, verb: 'delete it (cancel it instead)' },
  confirm: { from: { DRAFT: ['CONFIRMED'] }, verb: 'confirm it' },
  cancel: { from: { DRAFT: ['CANCELLED'], CONFIRMED: ['CANCELLED'] }, verb: 'cancel it' },
  'apportion-freight': { from: { DRAFT: ['DRAFT'], CONFIRMED: ['CONFIRMED'] }, verb: 'take or give back CT-e freight' },
};

/** The code of a refused action: it names the document's current status. */
export const conflictCode = (status: EntryDocumentStatus) => `ENTRY_DOCUMENT_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  EntryDocumentStatus,
  EntryDocumentAction,
  Pick<EntryDocument, 'status'>
>({
  resource: 'Entry document',
  transitions: TRANSITIONS,
  conflictCode,
});
