import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { FiscalPeriodStatus } from './entities/fiscal-period.entity';

/*
 * A filial's month: OPEN → CLOSED (close) → OPEN (reopen, with a reason) → CLOSED again…
 * A refused action is a 409 naming the current status (FISCAL_PERIOD_OPEN, FISCAL_PERIOD_CLOSED).
 */
export type FiscalPeriodAction = 'close' | 'reopen';

export const TRANSITIONS: Record<FiscalPeriodAction, ActionRule<FiscalPeriodStatus>> = {
  close: { from: { OPEN: ['CLOSED'] }, verb: 'close it' },
  reopen: { from: { CLOSED: ['OPEN'] }, verb: 'reopen it' },
};

export const conflictCode = (status: FiscalPeriodStatus) => `FISCAL_PERIOD_${status}`;

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  FiscalPeriodStatus,
  FiscalPeriodAction,
  { status: FiscalPeriodStatus }
>({
  resource: 'Fiscal period',
  transitions: TRANSITIONS,
  conflictCode,
});
