import { ConflictError, StateConflictError } from './errors';

/** What one action may do: status → the statuses it may leave the document in (empty: removed). */
export interface ActionRule<S extends string> {
  from: Partial<Record<S, readonly S[]>>;
  /** Human wording for the 409 ("cancel it"). */
  verb: string;
}

export interface StateMachineDefinition<S extends string, A extends string, D extends { status: S }> {
  /** The resource as the 409 names it ("Payable", "CT-e"). */
  resource: string;
  transitions: Record<A, ActionRule<S>>;
  /** The code of a refused action by the current status (ENTRY_DOCUMENT_CONFIRMED); default INVALID_STATUS_TRANSITION. */
  conflictCode?: (status: S) => string;
  /** A further condition beside the status (a sales order's type). */
  allows?: (doc: D, action: A) => boolean;
  /** A more helpful refusal than the generic one, where the machine has it; undefined → the generic 409. */
  refusal?: (doc: D, action: A) => ConflictError | undefined;
}

export interface StateMachine<S extends string, A extends string, D extends { status: S }> {
  transitions: Record<A, ActionRule<S>>;
  canDo: (doc: D, action: A) => boolean;
  /** The 409 of a forbidden action, naming the current status. */
  forbidden: (doc: D, action: A) => ConflictError;
  /** Throws the 409 unless `action` is allowed for the document as it is now. */
  assertAllowed: (doc: D, action: A) => void;
  /** Checks the target status of a transition against the table (a programming error if not allowed). */
  assertTransition: (doc: D, action: A, to: S) => void;
}

/*
 * One implementation of the guards every document with statuses uses (sales orders, entry documents,
 * purchase orders, CT-e, payables…): each module keeps its own table in its `<module>.state.ts` and gets
 * the same canDo / forbidden / assertAllowed / assertTransition from it.
 */
export function defineStateMachine<S extends string, A extends string, D extends { status: S } = { status: S }>(
  definition: StateMachineDefinition<S, A, D>,
): StateMachine<S, A, D> {
  const { resource, transitions } = definition;
  const canDo = (doc: D, action: A): boolean => doc.status in transitions[action].from && (definition.allows?.(doc, action) ?? true);
  const forbidden = (doc: D, action: A): ConflictError =>
    definition.refusal?.(doc, action) ??
    new StateConflictError(resource, doc.status, transitions[action].verb, definition.conflictCode?.(doc.status));
  const assertAllowed = (doc: D, action: A): void => {
    if (!canDo(doc, action)) throw forbidden(doc, action);
  };
  const assertTransition = (doc: D, action: A, to: S): void => {
    assertAllowed(doc, action);
    const targets = transitions[action].from[doc.status] ?? [];
    if (!targets.includes(to)) throw new Error(`transition ${doc.status} → ${to} is not in the table for ${action}`);
  };
  return { transitions, canDo, forbidden, assertAllowed, assertTransition };
}
