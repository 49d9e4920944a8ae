import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import type { NfeInbound } from '../inbound-nfe';
import { findByKeyInFilial, findInboundByKey, governingFilial } from '../inbound-nfe';
import type { Filial } from '../tenancy';
import { authorityAnswerError, eventOutcome, type ManifestationEvent, type AuthorityClient } from '../authority';
import { recordManifestation } from './dfe-ingest';
import { clientFor } from '../sefaz';

/*
 * `manifestar`: the recipient's manifestation through NFeRecepcaoEvento 4.00. 135/136 record it with
 * the authority's protocol; 573 (already registered — by this service earlier or by another system
 * on the same CNPJ) records the state without a protocol and answers success; anything else is a
 * 422 rejection or a 502/503 authority failure carrying cStat/xMotivo.
 */

export interface ManifestInput {
  accessKey: string;
  event: ManifestationEvent;
  justification?: string;
}

export interface ManifestResult {
  inbound: NfeInbound;
  cStat: string;
  xMotivo: string;
  protocol: string | null;
  registeredAt: string | null;
  /** The authority already had this event (573). */
  alreadyRegistered: boolean;
}

/** `client`: one already made for the filial (the scheduler sends many in a row). */
export async function manifestInbound(
  ctx: TenantContext,
  filial: Filial,
  inbound: NfeInbound,
  input: Omit<ManifestInput, 'accessKey'>,
  client?: AuthorityClient,
): Promise<ManifestResult> {
  client ??= await clientFor(filial);
  const { result } = await client.manifest({ event: input.event, accessKey: inbound.accessKey, justification: input.justification });
  const outcome = eventOutcome(result.cStat);
  if (outcome !== 'REGISTERED' && outcome !== 'DUPLICATE')
    throw authorityAnswerError(result.cStat, result.xMotivo, `Manifestation ${input.event}`);
  const registeredAt = result.registeredAt ? new Date(Date.parse(result.registeredAt)) : new Date();
  const updated = await inTransaction(ctx, async (em) => {
    const current = (await findInboundByKey(em, ctx.companyId, filial.id, inbound.accessKey, true))!;
    return recordManifestation(em, ctx, current, {
      event: input.event,
      protocol: outcome === 'REGISTERED' ? result.protocol : null,
      at: Number.isNaN(registeredAt.getTime()) ? new Date() : registeredAt,
      cStat: result.cStat,
      origin: 'REQUEST',
    });
  });
  return {
    inbound: updated,
    cStat: result.cStat,
    xMotivo: result.xMotivo,
    protocol: result.protocol,
    registeredAt: result.registeredAt,
    alreadyRegistered: outcome === 'DUPLICATE',
  };
}

export async function manifest(ctx: TenantContext, input: ManifestInput): Promise<ManifestResult> {
  const filial = await governingFilial(ctx);
  const inbound = await findByKeyInFilial(readerOf(ctx), ctx, filial.id, input.accessKey);
  return manifestInbound(ctx, filial, inbound, input);
}
