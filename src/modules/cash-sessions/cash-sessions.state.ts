import { defineStateMachine } from '../../core/state-machine';
import type { CashSession, CashSessionStatus } from './entities/cash-session.entity';

/*
 * The cash session's states (docs/decisions/cash-sessions.md):
 *
 *   OPEN ──close──▶ CLOSED               (every difference within the limit)
 *   OPEN ──close──▶ PENDING_APPROVAL ──approve──▶ CLOSED
 *   CLOSED | PENDING_APPROVAL ──reopen (supervisor, reason)──▶ OPEN
 *
 * Sales and movements ('sell', 'move') only attach to an OPEN session.
 */
export type CashSessionAction = 'close' | 'approve' | 'reopen' | 'move' | 'sell';

export const TRANSITIONS: Record<CashSessionAction, { from: Partial<Record<CashSessionStatus, CashSessionStatus[]>>; verb: string }> = {
  close: { from: { OPEN: ['CLOSED', 'PENDING_APPROVAL'] }, verb: 'close it' },
  approve: { from: { PENDING_APPROVAL: ['CLOSED'] }, verb: 'approve its close' },
  reopen: { from: { CLOSED: ['OPEN'], PENDING_APPROVAL: ['OPEN'] }, verb: 'reopen it' },
  move: { from: { OPEN: ['OPEN'] }, verb: 'record a sangria or suprimento in it' },
  sell: { from: { OPEN: ['OPEN'] }, verb: 'sell in it' },
};

export const cashSessionMachine = defineStateMachine<CashSessionStatus, CashSessionAction, Pick<CashSession, 'status'>>({
  resource: 'The cash session',
  transitions: TRANSITIONS,
  conflictCode: (status) => `CASH_SESSION_${status}`,
});

/** Statuses of a counted session (its close recorded). */
export const COUNTED: CashSessionStatus[] = ['PENDING_APPROVAL', 'CLOSED'];
