import { StateConflictError } from '../../core/errors';
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

interface ActionRule {
  /** Status → the statuses the action may leave the document in (empty: the document is removed). */
  from: Partial<Record<EntryDocumentStatus, EntryDocumentStatus[]>>;
  /** Human wording for the 409. */
  verb: string;
}

export const TRANSITIONS: Record<EntryDocumentAction, ActionRule> = {
  edit: { from: { DRAFT: ['DRAFT'] }, verb: 'edit it' },
  delete: { from: { DRAFT: [] }, verb: 'delete it (cancel it instead)' },
  confirm: { from: { DRAFT: ['CONFIRMED'] }, verb: 'confirm it' },
  cancel: { from: { DRAFT: ['CANCELLED'], CONFIRMED: ['CANCELLED'] }, verb: 'cancel it' },
  'apportion-freight': { from: { DRAFT: ['DRAFT'], CONFIRMED: ['CONFIRMED'] }, verb: 'take or give back CT-e freight' },
};

type WithStatus = Pick<EntryDocument, 'status'>;

export const canDo = (doc: WithStatus, action: EntryDocumentAction): boolean => doc.status in TRANSITIONS[action].from;

/** The code of a refused action: it names the document's current status. */
export const conflictCode = (status: EntryDocumentStatus) => `ENTRY_DOCUMENT_${status}`;

/** The 409 of a forbidden action, naming the current status. */
export const forbidden = (doc: WithStatus, action: EntryDocumentAction): StateConflictError =>
  new StateConflictError('Entry document', doc.status, TRANSITIONS[action].verb, conflictCode(doc.status));

/** Throws the 409 unless `action` is allowed for the document as it is now. */
export function assertAllowed(doc: WithStatus, action: EntryDocumentAction): void {
  if (!canDo(doc, action)) throw forbidden(doc, action);
}

/** Checks the target status of a transition against the table (a programming error if not allowed). */
export function assertTransition(doc: WithStatus, action: EntryDocumentAction, to: EntryDocumentStatus): void {
  assertAllowed(doc, action);
  const targets = TRANSITIONS[action].from[doc.status] ?? [];
  if (!targets.includes(to)) throw new Error(`transition ${doc.status} → ${to} is not in the table for ${action}`);
}
