/*
 * Front door of the emission kernel (docs/decisions/emission-kernel.md): the exactly-once loop the
 * outbound NF-e and the NFC-e share — the authorization exchange (send, lost answer → consult the key,
 * the verdict under the kind's rules) and the recovery pass. It knows neither kind: each declares its
 * AuthorizationRules and RecoveryPass and keeps its store, its records, its contingency and deadlines.
 */
export { consult, DENIED, procOf, RESEND, transmit } from './exchange';
export type { AuthorizationRules, Authorized, Rejected, Standing } from './exchange';
export { runRecoveryPass } from './recovery-pass';
export type { RecoveryPass } from './recovery-pass';
