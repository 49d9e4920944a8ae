import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { BusinessRuleError, StateConflictError, UpstreamError } from '../../core/errors';
import { clientOf, gz } from '../invoices/invoice-store';
import { signatureFor } from '../invoices/xml/nfe-signer';
import { asciiText, brasiliaDateTime } from '../sefaz/xml/events';
import { buildIssuerEnvEvento, buildIssuerEvento, canonicalIssuerInfEvento, IssuerEvent, issuerEventId, TP_CANCELAMENTO } from '../sefaz/xml/outbound';
import { NFE_NS } from '../sefaz/xml/dom';
import type { NfceDocument } from './entities/nfce-document.entity';
import { counterSigning, findNfce, moveNfce } from './issue.service';

/*
 * Cancellation of an authorized NFC-e (event 110111) within the UF's window. The NFC-e window is
 * short and set by each UF; 30 minutes is what most apply (data, per UF, below). Past it → 422 before
 * anything is sent; the authority's own 501 maps to the same answer.
 */
export const NFCE_CANCEL_WINDOW_MINUTES: Readonly<Record<string, number>> = Object.freeze({ default: 30 });

export async function cancelNfce(ctx: TenantContext, id: number, justification: string, now = new Date()): Promise<NfceDocument> {
  const doc = await findNfce(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  if (doc.status !== 'AUTHORIZED') throw new StateConflictError('The NFC-e', doc.status, 'cancel', `NFCE_${doc.status}`);
  const s = await counterSigning(doc.companyId, doc.filialId);
  const minutes = NFCE_CANCEL_WINDOW_MINUTES[s.filial.uf] ?? NFCE_CANCEL_WINDOW_MINUTES.default;
  const deadline = (doc.authorizedAt ?? doc.issuedAt).getTime() + minutes * 60_000;
  if (now.getTime() > deadline) {
    throw new BusinessRuleError('CANCELLATION_DEADLINE_PASSED', `An NFC-e of ${s.filial.uf} may be cancelled within ${minutes} minutes of its authorization (until ${new Date(deadline).toISOString()})`, { deadline: new Date(deadline).toISOString(), minutes });
  }
  const text = asciiText(justification).slice(0, 255);
  const e: IssuerEvent = { tpEvento: TP_CANCELAMENTO, cOrgao: doc.accessKey.slice(0, 2), tpAmb: s.tpAmb, cnpj: s.filial.cnpj, accessKey: doc.accessKey, at: brasiliaDateTime(now), sequence: 1, protocol: doc.protocol ?? undefined, text };
  const canonical = canonicalIssuerInfEvento(e);
  const { signature } = signatureFor(issuerEventId(e), canonical, s.signer);
  const evento = buildIssuerEvento(canonical, signature);
  const client = await clientOf(s, null);
  let reply;
  try {
    reply = await client.event(buildIssuerEnvEvento(evento, String(Date.now()).slice(-15)));
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer the cancellation: ${(err as Error).message}`);
  }
  const result = reply.lot.events.find((r) => r.accessKey === doc.accessKey) ?? null;
  const cStat = result?.cStat ?? reply.lot.cStat;
  const xMotivo = result?.xMotivo ?? reply.lot.xMotivo;
  // 135/155 registered; 573: registered before (a lost answer) — the authority's record stands.
  if (!['135', '155', '573'].includes(cStat)) {
    if (cStat === '108' || cStat === '109') throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority is unavailable: ${cStat} ${xMotivo}`, { cStat, xMotivo });
    if (cStat === '501') throw new BusinessRuleError('CANCELLATION_DEADLINE_PASSED', `The authority refused the cancellation as late: ${cStat} ${xMotivo}`, { cStat, xMotivo });
    throw new BusinessRuleError('SEFAZ_REJECTED', `The authority rejected the cancellation: ${cStat} ${xMotivo}`, { cStat, xMotivo });
  }
  const retEvento = /<(?:\w+:)?retEvento[\s>][\s\S]*?<\/(?:\w+:)?retEvento>/.exec(reply.raw)?.[0] ?? '';
  const proc = `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${evento.replace(` xmlns="${NFE_NS}"`, '')}${retEvento}</procEventoNFe>`;
  return moveNfce(ctx, doc, 'CANCELLED', { cStat, xMotivo: xMotivo.slice(0, 255), cancelProtocol: result?.protocol ?? null, cancelXmlGz: gz(proc) }, 'nfce.cancelled', { justification: text });
}
