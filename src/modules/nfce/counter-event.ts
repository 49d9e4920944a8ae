import { BusinessRuleError, UpstreamError } from '../../core/errors';
import { clientOf, FilialSigning } from '../invoices';
import { buildIssuerEnvEvento, buildIssuerEvento, canonicalIssuerInfEvento, IssuerEvent, issuerEventId, NFE_NS, signatureFor } from '../authority';

/*
 * One issuer's event of an NFC-e (110111, 110112): signed with the filial's certificate, sent as a lot
 * of one, and the authority's answer mapped to the house errors. 135/155 registered; 573 registered
 * before (an answer lost on the way back) — the authority's record stands.
 */
export interface RegisteredEvent {
  cStat: string;
  xMotivo: string;
  protocol: string | null;
  /** procEventoNFe: the signed evento and the authority's retEvento. */
  proc: string;
}

export async function sendCounterEvent(s: FilialSigning, e: IssuerEvent, what: string): Promise<RegisteredEvent> {
  const canonical = canonicalIssuerInfEvento(e);
  const { signature } = signatureFor(issuerEventId(e), canonical, s.signer);
  const evento = buildIssuerEvento(canonical, signature);
  const client = await clientOf(s, null);
  let reply;
  try {
    reply = await client.event(buildIssuerEnvEvento(evento, String(Date.now()).slice(-15)));
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer the ${what}: ${(err as Error).message}`);
  }
  const result = reply.lot.events.find((r) => r.accessKey === e.accessKey) ?? null;
  const cStat = result?.cStat ?? reply.lot.cStat;
  const xMotivo = result?.xMotivo ?? reply.lot.xMotivo;
  if (!['135', '155', '573'].includes(cStat)) {
    if (cStat === '108' || cStat === '109') throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority is unavailable: ${cStat} ${xMotivo}`, { cStat, xMotivo });
    if (cStat === '501') throw new BusinessRuleError('CANCELLATION_DEADLINE_PASSED', `The authority refused the ${what} as late: ${cStat} ${xMotivo}`, { cStat, xMotivo });
    throw new BusinessRuleError('SEFAZ_REJECTED', `The authority rejected the ${what}: ${cStat} ${xMotivo}`, { cStat, xMotivo });
  }
  const retEvento = /<(?:\w+:)?retEvento[\s>][\s\S]*?<\/(?:\w+:)?retEvento>/.exec(reply.raw)?.[0] ?? '';
  const proc = `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${evento.replace(` xmlns="${NFE_NS}"`, '')}${retEvento}</procEventoNFe>`;
  return { cStat, xMotivo, protocol: result?.protocol ?? null, proc };
}
