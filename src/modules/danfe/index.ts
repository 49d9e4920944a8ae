/*
 * The DANFE module's front door: the NF-e's printed form (DANFE, MOC 7.0 layout) drawn from a parsed NF-e, for
 * the inbound documents (inbound-nfe) and the issued ones (outbound-nfe) alike. It reads no database.
 */
export { renderDanfe } from './danfe-layout';
export type { DanfeInput } from './danfe-layout';
