import type { EntityManager } from 'typeorm';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import type { ComputedFiscalDocument } from '../fiscal';
import { computeFiscalDocument } from '../fiscal';
import { BillingTarget, loadBillingSource } from './billing-source';
import { claimOf, documentSource, ExternalSourceKind } from './document-sources';
import type { OutboundNfeSource } from './entities/outbound-nfe.entity';
import type { Installment } from './xml/nfe-xml';

/*
 * What one NF-e issues for, resolved to its document: billing (a fulfilment or an order, computed by
 * the tax engine from the order lines) or a source a module registered (document-sources.ts), which
 * builds its own document. Either way the emission path gets the same contract (fiscal-document.ts).
 */

export interface SourceTarget extends BillingTarget {
  source?: { kind: ExternalSourceKind; id: number };
}

export interface ResolvedSource {
  source: OutboundNfeSource;
  sourceId: number | null;
  claim: string;
  /** Claims that exclude this one (billing: an order against its fulfilments and the reverse). */
  conflictingClaims: string[];
  /** The lock row the issuing transaction writes first (claim-lock.ts): the sales order for billing, the claim for a registered source. */
  scope: string;
  fulfillmentId: number | null;
  salesOrderId: number | null;
  filialId: number;
  customerId: number | null;
  document: ComputedFiscalDocument;
  paymentType?: string;
  installments?: Installment[];
  notes?: string | null;
}

export async function resolveSource(ctx: TenantContext, target: SourceTarget, em: EntityManager, date: string): Promise<ResolvedSource> {
  if (target.source) {
    const { kind, id } = target.source;
    const s = await documentSource(kind).load(ctx, id, em, date);
    return {
      source: kind,
      sourceId: id,
      claim: claimOf(kind, id),
      conflictingClaims: [],
      scope: claimOf(kind, id),
      fulfillmentId: null,
      salesOrderId: s.salesOrderId,
      filialId: s.filialId,
      customerId: s.customerId,
      document: s.document,
      paymentType: s.paymentType,
      installments: s.installments,
      notes: s.notes,
    };
  }
  const b = await loadBillingSource(ctx, target, em);
  const finalConsumer = target.finalConsumer ?? b.request.finalConsumer;
  const document = await computeFiscalDocument(ctx, { ...b.request, finalConsumer, date }, em);
  return {
    source: b.source,
    sourceId: null,
    claim: b.claim,
    conflictingClaims: b.conflictingClaims,
    scope: b.scope,
    fulfillmentId: b.fulfillmentId,
    salesOrderId: b.salesOrderId,
    filialId: b.filialId,
    customerId: b.customerId,
    document,
  };
}

/** What is issued and by which filial, without computing billing's document (the issue checks claims and the certificate first). */
export async function probeSource(
  ctx: TenantContext,
  target: SourceTarget,
  em: EntityManager,
): Promise<Pick<ResolvedSource, 'source' | 'claim' | 'conflictingClaims' | 'scope' | 'filialId'>> {
  if (target.source) return resolveSource(ctx, target, em, businessToday());
  return loadBillingSource(ctx, target, em);
}

/** The target that rebuilds a stored document (contingency, resend). */
export function targetOf(doc: {
  source: OutboundNfeSource;
  sourceId: number | null;
  fulfillmentId: number | null;
  salesOrderId: number | null;
}): SourceTarget {
  if (doc.source === 'FULFILLMENT') return { fulfillmentId: doc.fulfillmentId! };
  if (doc.source === 'ORDER') return { salesOrderId: doc.salesOrderId! };
  return { source: { kind: doc.source, id: doc.sourceId! } };
}
