import { defineStateMachine } from '../../core/state-machine';
import type { Boleto, BoletoStatus } from './entities/boleto.entity';

/*
 * The boleto's state machine (SPEC §14):
 *
 *   PENDING_REGISTRATION → REGISTERED (entrada confirmada) | REFUSED (rejeição, with the reason)
 *                        → CANCELLED (withdrawn before any remessa carried it)
 *   REGISTERED → PAID | PARTIALLY_PAID (liquidação) · WRITTEN_OFF (baixa) · PROTESTED
 *   PARTIALLY_PAID → PAID | PARTIALLY_PAID · WRITTEN_OFF · PROTESTED
 *   PROTESTED → PAID (paid at the notary, liquidação) · WRITTEN_OFF
 *
 * A liquidação of a title still PENDING_REGISTRATION (the bank's entrada and payment in one file)
 * registers it on the way. Instructions (change due date or value, write off, protest) are asked
 * of REGISTERED and PARTIALLY_PAID titles and take effect when the bank confirms them.
 */
export type BoletoAction = 'register' | 'refuse' | 'pay' | 'write-off' | 'protest' | 'cancel' | 'instruct';

const LIVE: BoletoStatus[] = ['REGISTERED', 'PARTIALLY_PAID'];

export const BOLETO_TRANSITIONS = {
  register: { from: { PENDING_REGISTRATION: ['REGISTERED'] }, verb: 'register' },
  refuse: { from: { PENDING_REGISTRATION: ['REFUSED'] }, verb: 'refuse' },
  pay: {
    from: {
      PENDING_REGISTRATION: ['PAID', 'PARTIALLY_PAID'],
      REGISTERED: ['PAID', 'PARTIALLY_PAID'],
      PARTIALLY_PAID: ['PAID', 'PARTIALLY_PAID'],
      PROTESTED: ['PAID', 'PARTIALLY_PAID'],
    },
    verb: 'settle',
  },
  'write-off': { from: { REGISTERED: ['WRITTEN_OFF'], PARTIALLY_PAID: ['WRITTEN_OFF'], PROTESTED: ['WRITTEN_OFF'] }, verb: 'write off' },
  protest: { from: { REGISTERED: ['PROTESTED'], PARTIALLY_PAID: ['PROTESTED'] }, verb: 'protest' },
  cancel: { from: { PENDING_REGISTRATION: ['CANCELLED'] }, verb: 'cancel' },
  instruct: { from: Object.fromEntries(LIVE.map((s) => [s, [s]])), verb: 'send an instruction for' },
} satisfies Record<BoletoAction, { from: Partial<Record<BoletoStatus, BoletoStatus[]>>; verb: string }>;

export const boletoMachine = defineStateMachine<BoletoStatus, BoletoAction, Pick<Boleto, 'status'>>({
  resource: 'Boleto',
  transitions: BOLETO_TRANSITIONS,
  conflictCode: (status) => `BOLETO_${status}`,
});

/** Statuses of a boleto that still stands for its receivable (a second one is refused meanwhile). */
export const STANDING_STATUSES: BoletoStatus[] = ['PENDING_REGISTRATION', 'REGISTERED', 'PARTIALLY_PAID', 'PROTESTED'];
