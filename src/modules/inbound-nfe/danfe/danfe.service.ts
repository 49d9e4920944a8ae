import type { TenantContext } from '../../../core/context';
import { readerOf } from '../../../core/db/transaction';
import type { NfeInbound } from '../entities/nfe-inbound.entity';
import { findFilialInbound, storedXml } from '../nfe-inbound.service';
import { parseNfe } from '../../fiscal-xml';
import { renderDanfe } from '../../danfe';

/** The DANFE (PDF) of a stored NF-e: drawn from its XML as received (422 NFE_XML_NOT_AVAILABLE for a summary). */
export async function danfePdf(ctx: TenantContext, id: number, filialId: number): Promise<{ inbound: NfeInbound; pdf: Buffer }> {
  const em = readerOf(ctx);
  const inbound = await findFilialInbound(em, ctx, id, filialId);
  const nfe = await parseNfe(await storedXml(em, ctx, inbound));
  return { inbound, pdf: await renderDanfe({ nfe, cancelled: inbound.authorityStatus === 'CANCELLED' }) };
}
