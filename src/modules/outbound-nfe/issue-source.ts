import { EntityManager, In } from 'typeorm';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import type { ComputedFiscalDocument } from '../fiscal';
import { computeFiscalDocument } from '../fiscal';
import { BillingTarget, loadBillingSource } from './billing-source';
import { claimOf, documentSource, ExternalSourceKind } from './document-sources';
import { OutboundNfe, type OutboundNfeSource } from './entities/outbound-nfe.entity';
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
  /** The lock row the issuing transaction writes first (below): the sales order for billing, the claim for a registered source. */
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

/*
 * Exactly once across claims (SPEC §12.2: a unit of goods is billed by at most one live document,
 * whatever mix of order, fulfilment and group claims race for it). The unique index on
 * outbound_nfe.claim stops two documents of one claim; it cannot see an order billed whole (O<id>)
 * against one of its own fulfilments (F<id>). So every issuing transaction first WRITES the lock row of
 * its scope — the sales order for billing, the claim itself for a registered source — and only then
 * reads which live document holds the goods. Issues of one sales order are thereby decided one at a
 * time, each seeing the documents its predecessors committed.
 * A written row rather than SELECT … FOR UPDATE: on a Galera cluster only written rows are certified
 * across nodes, so two nodes' issues of one order conflict at commit (1213) and the loser runs again,
 * then finds the winner. Releasing stays where it was: a document holds its claim while it lives
 * (REJECTED and DENIED included; VOIDED and CANCELLED set it null).
 */

export type ClaimHolder = Pick<OutboundNfe, 'id' | 'series' | 'number' | 'status' | 'claim' | 'requestKey'>;

const UPSERT = isMysql
  ? 'INSERT INTO outbound_nfe_claim_lock (company_id, scope, taken) VALUES (?, ?, 1) ON DUPLICATE KEY UPDATE taken = taken + 1'
  : 'INSERT INTO outbound_nfe_claim_lock (company_id, scope, taken) VALUES (?, ?, 1) ON CONFLICT (company_id, scope) DO UPDATE SET taken = taken + 1';

/** Writes the scope's lock row in `em`'s transaction: held until it commits or rolls back (a crash included). */
export async function lockClaimScope(em: EntityManager, companyId: number, scope: string): Promise<void> {
  await em.query(UPSERT, [companyId, scope]);
}

/**
 * The claims the issue must find free, read under the lock: an order billed whole excludes each of its
 * fulfilments, read now (not before the lock), so one fulfilled meanwhile is seen.
 */
export async function claimsUnderLock(
  ctx: TenantContext,
  target: SourceTarget,
  probe: Pick<ResolvedSource, 'source' | 'claim' | 'conflictingClaims'>,
  em: EntityManager,
): Promise<string[]> {
  const current = probe.source === 'ORDER' ? await loadBillingSource(ctx, target, em) : probe;
  return [current.claim, ...current.conflictingClaims];
}

/** The live document holding any of `claims` (null when the goods are free). */
export function liveHolder(em: EntityManager, companyId: number, claims: string[]): Promise<ClaimHolder | null> {
  return em.findOne(OutboundNfe, {
    where: { companyId, claim: In(claims) },
    select: { id: true, series: true, number: true, status: true, claim: true, requestKey: true },
    order: { id: 'ASC' },
  });
}

const describe = (source: string) =>
  source === 'FULFILLMENT' ? 'This fulfilment' : source === 'ORDER' ? 'This order' : `This ${source.toLowerCase().replace('_', ' ')}`;

/** 409 ALREADY_INVOICED naming the document that holds the goods. */
export function alreadyInvoiced(source: string, holder: ClaimHolder): ConflictError {
  return new ConflictError(
    'ALREADY_INVOICED',
    `${describe(source)} already has NF-e ${holder.series}/${holder.number} (${holder.status})`,
    {
      invoiceId: encodeId('invoice', holder.id),
      invoiceStatus: holder.status,
    },
  );
}
