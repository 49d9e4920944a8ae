import { defineStateMachine } from '../../core/state-machine';
import type { PixCharge, PixChargeStatus } from './entities/pix-charge.entity';

/*
 * The state machine of a Pix charge (SPEC §14):
 *   PENDING → ACTIVE (the PSP took it) | REFUSED (it refused it, with its reason);
 *   ACTIVE → COMPLETED (the PSP reports it CONCLUIDA: a Pix paid it) | REMOVED (removed at the PSP);
 *   a static code is born ACTIVE (no PSP) and is COMPLETED when a Pix with its txid is applied.
 * `confirm` is the PSP's answer to the creation, `sync` a re-read (webhook or by hand), which may
 * find a PENDING charge created after all.
 */
export type PixChargeAction = 'confirm' | 'refuse' | 'sync' | 'complete';

export const PIX_CHARGE_STATUSES: PixChargeStatus[] = ['PENDING', 'ACTIVE', 'COMPLETED', 'REMOVED', 'REFUSED'];

export const pixChargeMachine = defineStateMachine<PixChargeStatus, PixChargeAction, Pick<PixCharge, 'status'>>({
  resource: 'Pix charge',
  transitions: {
    confirm: { from: { PENDING: ['ACTIVE', 'COMPLETED'] }, verb: 'confirm it' },
    refuse: { from: { PENDING: ['REFUSED'] }, verb: 'refuse it' },
    sync: {
      from: { PENDING: ['ACTIVE', 'COMPLETED', 'REMOVED'], ACTIVE: ['COMPLETED', 'REMOVED'], COMPLETED: ['COMPLETED'] },
      verb: 'read it again from the PSP',
    },
    complete: { from: { ACTIVE: ['COMPLETED'] }, verb: 'complete it' },
  },
  conflictCode: (status) => `PIX_CHARGE_${status}`,
});

/** The charge's status for the PSP's (API Pix `status` of a cob/cobv). */
export function statusOfPsp(pspStatus: string): PixChargeStatus {
  if (pspStatus === 'CONCLUIDA') return 'COMPLETED';
  if (pspStatus.startsWith('REMOVIDA')) return 'REMOVED';
  return 'ACTIVE';
}
