import { BusinessRuleError, UpstreamError } from '../../core/errors';
import {
  buildEnvEvento,
  buildProcEventoNFe,
  Contingency,
  IssuerEvent,
  issuerEventFields,
  NFE_NS,
  NoAnswerError,
  signedEvento,
} from '../authority';
import type { EnvEventoResult, EventResult } from '../authority';
import { clientOf, FilialSigning } from './invoice-store';

/*
 * The issuer's event on one of its notes, NF-e or NFC-e (110110, 110111, 110112): signed with the
 * filial's certificate, sent to the authority that authorized the note as a lot of one, kept as the
 * procEventoNFe (the signed evento and the authority's retEvento). An event sent without an answer is
 * 504: whether it was registered is unknown until it is sent again (the authority then answers 573).
 */

export interface SentEvent {
  /** The event's own result (null: the lot was refused as a whole). */
  result: EventResult | null;
  lot: EnvEventoResult;
  proc: string;
}

export async function sendIssuerEvent(s: FilialSigning, e: IssuerEvent, contingency: Contingency | null, what: string): Promise<SentEvent> {
  const evento = signedEvento(issuerEventFields(e), s.signer);
  const client = await clientOf(s, contingency);
  let reply;
  try {
    reply = await client.issuerEvent(buildEnvEvento(evento, String(Date.now()).slice(-15)), e.tpEvento);
  } catch (err) {
    if (err instanceof NoAnswerError)
      throw new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer the ${what}: ${err.message}`);
    throw err;
  }
  const { retEventos, ...lot } = reply;
  const index = lot.events.findIndex((r) => r.accessKey === e.accessKey);
  const retEvento = index >= 0 ? retEventos[index] : (retEventos[0] ?? '');
  return {
    result: index >= 0 ? lot.events[index] : null,
    lot,
    // inside procEventoNFe the evento inherits the namespace it declared standalone
    proc: buildProcEventoNFe(evento.replace(` xmlns="${NFE_NS}"`, ''), retEvento),
  };
}

export interface RegisteredEvent {
  cStat: string;
  xMotivo: string;
  protocol: string | null;
  registeredAt: string | null;
  /** procEventoNFe: the signed evento and the authority's retEvento. */
  proc: string;
}

/** 135/155 registered; 573 registered before (an answer lost on the way back): the authority's record stands. */
export const CANCELLATION_REGISTERED: readonly string[] = ['135', '155', '573'];

/** The event registered (its cStat among `accepted`), or the problem its refusal maps to. */
export function registeredEvent(sent: SentEvent, accepted: readonly string[], what: string): RegisteredEvent {
  const { result, lot, proc } = sent;
  const cStat = result?.cStat ?? lot.cStat;
  const xMotivo = result?.xMotivo ?? lot.xMotivo;
  if (!result || !accepted.includes(cStat)) {
    if (cStat === '108' || cStat === '109')
      throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority is unavailable: ${cStat} ${xMotivo}`, {
        cStat,
        xMotivo,
      });
    if (cStat === '501')
      throw new BusinessRuleError('CANCELLATION_DEADLINE_PASSED', `The authority refused the ${what} as late: ${cStat} ${xMotivo}`, {
        cStat,
        xMotivo,
      });
    throw new BusinessRuleError('SEFAZ_REJECTED', `The authority rejected the ${what}: ${cStat} ${xMotivo}`, { cStat, xMotivo });
  }
  return { cStat, xMotivo, protocol: result.protocol, registeredAt: result.registeredAt, proc };
}

/** Sent and registered, or refused with the problem (the NFC-e's cancellations: nothing to decide in between). */
export async function registerIssuerEvent(
  s: FilialSigning,
  e: IssuerEvent,
  what: string,
  accepted = CANCELLATION_REGISTERED,
): Promise<RegisteredEvent> {
  return registeredEvent(await sendIssuerEvent(s, e, null, what), accepted, what);
}
