import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { SupplierReturn, SupplierReturnStatus } from './entities/supplier-return.entity';

/*
 * The state machine of a supplier return, following its NF-e de devolução:
 *
 *   ISSUED → AUTHORIZED | REJECTED | DENIED     (the authority's answer, recorded with the NF-e's)
 *   REJECTED → AUTHORIZED | REJECTED | DENIED   (corrected and re-sent with the same number)
 *   REJECTED → VOIDED                           (its number voided: the quantities are free again)
 *   ISSUED → FAILED                             (no NF-e could be stored: certificate, fiscal data…)
 *   AUTHORIZED → CANCELLED                      (110111: every posting reversed)
 */
export type SupplierReturnAction = 'authorize' | 'reject' | 'deny' | 'void' | 'fail' | 'cancel';

export const SUPPLIER_RETURN_STATUSES: SupplierReturnStatus[] = [
  'ISSUED',
  'AUTHORIZED',
  'REJECTED',
  'DENIED',
  'VOIDED',
  'FAILED',
  'CANCELLED',
];

export const TRANSITIONS: Record<SupplierReturnAction, ActionRule<SupplierReturnStatus>> = {
  authorize: { from: { ISSUED: ['AUTHORIZED'], REJECTED: ['AUTHORIZED'] }, verb: 'authorize' },
  reject: { from: { ISSUED: ['REJECTED'], REJECTED: ['REJECTED'] }, verb: 'reject' },
  deny: { from: { ISSUED: ['DENIED'], REJECTED: ['DENIED'] }, verb: 'deny' },
  void: { from: { REJECTED: ['VOIDED'] }, verb: 'void' },
  fail: { from: { ISSUED: ['FAILED'] }, verb: 'give up issuing' },
  cancel: { from: { AUTHORIZED: ['CANCELLED'] }, verb: 'cancel' },
};

/** Statuses whose quantities count as returned (or reserved by a live NF-e). */
export const LIVE_STATUSES: SupplierReturnStatus[] = ['ISSUED', 'REJECTED', 'AUTHORIZED'];

export const conflictCode = (status: SupplierReturnStatus) => `SUPPLIER_RETURN_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  SupplierReturnStatus,
  SupplierReturnAction,
  Pick<SupplierReturn, 'status'>
>({
  resource: 'Supplier return',
  transitions: TRANSITIONS,
  conflictCode,
});
