import { ActionRule, defineStateMachine } from '../../core/state-machine';
import type { StockTransfer, TransferStatus } from './entities/stock-transfer.entity';

/*
 * The state machine of a transfer between filiais (docs/decisions/filial-transfers.md), on
 * core/state-machine.ts as the other documents:
 *
 *   ISSUING → ISSUING      (its NF-e is issued: only while ISSUING)
 *   ISSUING → AUTHORIZED   (the NF-e authorized: the units leave the sending filial)
 *   ISSUING → RELEASED     (the NF-e never came to be: rejected and withdrawn, denied, voided, not issued)
 *   AUTHORIZED → CANCELLED (the NF-e cancelled: the units come back)
 *
 * Every action leaves from one status to one: the moves are conditional UPDATEs from that status
 * (transfers.repository moveStatus), so a hook that arrives twice does nothing the second time.
 */
export type TransferAction = 'issue' | 'authorize' | 'release' | 'cancel';

export const TRANSITIONS: Record<TransferAction, ActionRule<TransferStatus>> = {
  issue: { from: { ISSUING: ['ISSUING'] }, verb: 'issue the NF-e of' },
  authorize: { from: { ISSUING: ['AUTHORIZED'] }, verb: 'record the authorization of' },
  release: { from: { ISSUING: ['RELEASED'] }, verb: 'release' },
  cancel: { from: { AUTHORIZED: ['CANCELLED'] }, verb: 'cancel' },
};

export const { canDo, forbidden, assertAllowed, assertTransition } = defineStateMachine<
  TransferStatus,
  TransferAction,
  Pick<StockTransfer, 'status'>
>({
  resource: 'Transfer',
  transitions: TRANSITIONS,
  conflictCode: (status) => `TRANSFER_${status}`,
});

/** The one move an action makes: the status it leaves from and the one it leaves the transfer in. */
export function moveOf(action: TransferAction): { from: TransferStatus; to: TransferStatus } {
  const [[from, targets]] = Object.entries(TRANSITIONS[action].from) as [TransferStatus, readonly TransferStatus[]][];
  return { from, to: targets[0] };
}
