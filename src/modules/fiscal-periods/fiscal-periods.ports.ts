import type { EntityManager } from 'typeorm';
import { definePort } from '../../core/port';

/*
 * What the close asks of the modules that hold the month's documents (invoices, nfce, nfe), which all
 * depend on this module (they call assertPeriodOpen): the documents still inside a legal window. The
 * provider is the accountant package's (accountant-package/closing-window.ts), plugged in by
 * src/modules/index.ts.
 */

export type PendingKind =
  /** An NF-e authorized less than 24 h ago: it may still be cancelled (110111). */
  | 'NFE_CANCELLABLE'
  /** An NFC-e still inside the UF's cancellation limit. */
  | 'NFCE_CANCELLABLE'
  /** A note issued in contingency (offline NFC-e, EPEC/SVC NF-e) the authority has not answered yet. */
  | 'CONTINGENCY_NOT_TRANSMITTED'
  /** A document signed and sent whose answer is not in (it may still be authorized). */
  | 'AWAITING_AUTHORITY'
  /** A cancellation, CC-e or voiding reserved and not yet answered. */
  | 'EVENT_IN_FLIGHT'
  /** An NF-e addressed to the filial (DF-e) that was never manifested. */
  | 'DFE_NOT_MANIFESTED';

export interface PendingDocument {
  kind: PendingKind;
  /** 55, 65 (or null for a voiding range). */
  model: number | null;
  series: number | null;
  number: number | null;
  accessKey: string | null;
  /** The resource's hashid where it has one (invoice, nfce, inbound NF-e), for the client to open it. */
  resource: { type: 'invoice' | 'nfce' | 'nfe-inbound'; id: string } | null;
  /** When the window ends (the 24 h, the UF limit, the manifestation deadline), null when it only ends with an answer. */
  until: Date | null;
  reason: string;
}

export interface PeriodRange {
  period: string;
  /** First instant of the month (America/Sao_Paulo) as the UTC 'YYYY-MM-DD HH:MM:SS.mmm' text both engines compare. */
  from: string;
  /** First instant of the next month, same form. */
  to: string;
  firstDay: string;
  lastDay: string;
}

export interface PeriodDocuments {
  pendingAtClose(em: EntityManager, companyId: number, filialId: number, range: PeriodRange, now: Date): Promise<PendingDocument[]>;
}

export const periodDocuments = definePort<PeriodDocuments>('periodDocuments');
