import type { EntityManager } from 'typeorm';
import type { ActorContext, TenantContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';
import { encodeId, ResourceType } from '../../core/hashids';
import type { ComputedFiscalDocument } from '../fiscal';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import type { Installment } from './xml/nfe-xml';

/*
 * Sources of an NF-e other than billing (SPEC §12.4): a customer return (our entry devolução), a
 * return to a supplier, a transfer between our own filiais. The module that owns the source registers
 * a provider here at load time; invoices never imports it (no cycle). The provider builds the
 * document, and hears the authority's answer and the cancellation IN the transaction that records
 * them, so its own effects (stock, payables, credits) commit or roll back with the document.
 */

export type ExternalSourceKind = 'CUSTOMER_RETURN' | 'SUPPLIER_RETURN' | 'TRANSFER';

export const EXTERNAL_SOURCE_KINDS: readonly ExternalSourceKind[] = ['CUSTOMER_RETURN', 'SUPPLIER_RETURN', 'TRANSFER'];

/** The claim a source holds while its document lives (unique per company): one live document per source. */
const CLAIM_PREFIX: Record<ExternalSourceKind, string> = { CUSTOMER_RETURN: 'CR', SUPPLIER_RETURN: 'SR', TRANSFER: 'TR' };
export const claimOf = (kind: ExternalSourceKind, sourceId: number) => `${CLAIM_PREFIX[kind]}${sourceId}`;

/** The public id type of each kind's source id (events and responses). */
export const SOURCE_ID_TYPE: Record<ExternalSourceKind, ResourceType> = {
  CUSTOMER_RETURN: 'return',
  SUPPLIER_RETURN: 'supplier-return',
  TRANSFER: 'transfer',
};

/** The public id of a document's registered source (null for billing). */
export const sourceIdOf = (doc: { source: string; sourceId: number | null }): string | null =>
  doc.sourceId === null || !(doc.source in SOURCE_ID_TYPE)
    ? null
    : encodeId(SOURCE_ID_TYPE[doc.source as ExternalSourceKind], doc.sourceId);

/** What a provider answers for one source: the document to issue and how to present it. */
export interface SourceDocument {
  filialId: number;
  /** The customer of a customer return (also kept on the document for lists); null otherwise. */
  customerId: number | null;
  /** The sale a customer return returns from; null otherwise. */
  salesOrderId: number | null;
  /**
   * The computed document: built from the original NF-e (fiscal `buildReturnDocument`) for devoluções,
   * or computed by the tax engine (`computeFiscalDocument`) for a transfer. Its `references` become NFref/refNFe.
   */
  document: ComputedFiscalDocument;
  /** tPag; default '90' (sem pagamento) for finNFe 3/4 and transfers, '01' otherwise. */
  paymentType?: string;
  installments?: Installment[];
  /** Free text before the Lei 12.741 text in infCpl (e.g. "Devolução da NF-e 1/123, motivo: …"). */
  notes?: string | null;
}

/** The document as the authority's answer (or the cancellation) left it: what a provider's hooks receive. */
export interface SourceDocumentOutcome {
  kind: ExternalSourceKind;
  sourceId: number;
  invoiceId: number;
  filialId: number;
  accessKey: string;
  series: number;
  number: number;
  total: Dec;
  /** ICMSTot of the document as issued (vBC, vICMS, vST, vFCP, vIPI, vIPIDevol, vPIS, vCOFINS, vProd, vDesc, vNF…). */
  totals: Record<string, Dec>;
  /** Authorization protocol (nProt). */
  protocol: string | null;
  authorizedAt: Date | null;
}

export interface SourceCancellation extends SourceDocumentOutcome {
  /** Registration protocol of the 110111 event; null in the dry run before it is sent. */
  cancelProtocol: string | null;
  justification: string;
}

export interface DocumentSourceProvider {
  kind: ExternalSourceKind;
  /**
   * Loads the source inside the tenant and builds its document (in `em`: the recording transaction
   * when issuing, a reader for a preview). Another tenant's id → NotFoundError; nothing to issue →
   * BusinessRuleError. `date` (YYYY-MM-DD) is the issue date.
   */
  load(ctx: TenantContext, sourceId: number, em: EntityManager, date: string): Promise<SourceDocument>;
  /** AUTHORIZED, in the transaction that records the protocol. Throwing rolls the recording back (the recovery pass retries it). */
  onAuthorized?(em: EntityManager, ctx: ActorContext, outcome: SourceDocumentOutcome): Promise<void>;
  /**
   * CANCELLED (110111), in the transaction that records the event. Also run once BEFORE the event is
   * sent, in a transaction that is rolled back (cancelProtocol null): throwing there refuses the
   * cancellation with nothing sent (e.g. a payable already paid).
   */
  onCancelled?(em: EntityManager, ctx: ActorContext, cancellation: SourceCancellation): Promise<void>;
  /** REJECTED/DENIED recorded, or a REJECTED document's number VOIDED (claim released): the source may be issued again. */
  onReleased?(
    em: EntityManager,
    ctx: ActorContext,
    outcome: SourceDocumentOutcome & { status: 'REJECTED' | 'DENIED' | 'VOIDED' },
  ): Promise<void>;
}

const providers = new Map<ExternalSourceKind, DocumentSourceProvider>();

/** Called once by the owning module at load time (a second registration of a kind replaces the first: tests reload modules). */
export function registerDocumentSource(provider: DocumentSourceProvider): void {
  providers.set(provider.kind, provider);
}

export function documentSource(kind: ExternalSourceKind): DocumentSourceProvider {
  const p = providers.get(kind);
  if (!p) throw new BusinessRuleError('SOURCE_NOT_SUPPORTED', `No module issues NF-e for ${kind} in this service`);
  return p;
}

/** The registered owner of a document's source; null for billing (fulfilment, order). */
export function ownerOf(doc: OutboundNfe): { provider: DocumentSourceProvider } | null {
  if (doc.source === 'FULFILLMENT' || doc.source === 'ORDER' || doc.sourceId === null) return null;
  return { provider: documentSource(doc.source) };
}

/** The typed payload a provider's hooks receive. */
export function outcomeOf(doc: OutboundNfe): SourceDocumentOutcome {
  if (doc.source === 'FULFILLMENT' || doc.source === 'ORDER' || doc.sourceId === null)
    throw new Error(`NF-e ${doc.id} bills a sale: it has no registered source`);
  return {
    kind: doc.source,
    sourceId: doc.sourceId,
    invoiceId: doc.id,
    filialId: doc.filialId,
    accessKey: doc.accessKey,
    series: doc.series,
    number: doc.number,
    total: doc.total,
    totals: Object.fromEntries(Object.entries(doc.summary.totals).map(([k, v]) => [k, new Dec(v)])),
    protocol: doc.protocol,
    authorizedAt: doc.authorizedAt,
  };
}
