import { EntityManager, In } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { loadBillingSource } from './billing-source';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import type { ResolvedSource, SourceTarget } from './issue-source';

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
