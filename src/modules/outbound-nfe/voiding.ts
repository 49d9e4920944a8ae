import { BusinessRuleError, UpstreamError } from '../../core/errors';
import { buildInutNFe, canonicalInfInut, NFE_NS, signatureFor, ufCode, voidId, VoidRequest } from '../authority';
import { clientOf, FilialSigning } from './invoice-store';

/*
 * One voiding of a number range (inutilização, NFeInutilizacao4) at the authority, for the NF-e's
 * void service (void.service.ts) and the NFC-e's online attempt left unused (nfce/substitution.service.ts):
 * the request, its signature, the call, the mapping of a missing answer, the reading of the cStat and
 * the procInutNFe to keep. What each caller does with the answer (a PENDING row asked again, a note
 * settled) stays with it. Called outside any transaction (the authority is slow).
 */

export interface VoidingRequest {
  model: number;
  series: number;
  first: number;
  last: number;
  justification: string;
  /** The two digits of the year the numbers belong to. */
  year: string;
  /** The UF code to use when the filial's UF is not in the table. */
  fallbackUfCode: string;
}

/** VOIDED: 102, or 256 "already voided" (a retry after a lost answer); UNAVAILABLE: 108/109; REFUSED: anything else. */
export type VoidingOutcome = 'VOIDED' | 'UNAVAILABLE' | 'REFUSED';

export interface VoidingAnswer {
  outcome: VoidingOutcome;
  cStat: string;
  xMotivo: string;
  protocol: string | null;
  /** The procInutNFe (request and answer) when VOIDED. */
  proc: string | null;
}

const outcomeOf = (cStat: string): VoidingOutcome =>
  cStat === '102' || cStat === '256' ? 'VOIDED' : cStat === '108' || cStat === '109' ? 'UNAVAILABLE' : 'REFUSED';

const withoutNs = (xml: string) => xml.replace(` xmlns="${NFE_NS}"`, '');

/** Asks the authority to void the range; no answer → 502/504 (UpstreamError) and nothing known. */
export async function requestVoiding(s: FilialSigning, request: VoidingRequest): Promise<VoidingAnswer> {
  const req: VoidRequest = {
    tpAmb: s.tpAmb,
    cUF: ufCode(s.filial.uf) ?? request.fallbackUfCode,
    year: request.year,
    cnpj: s.filial.cnpj,
    model: request.model,
    series: request.series,
    first: request.first,
    last: request.last,
    justification: request.justification,
  };
  const canonical = canonicalInfInut(req);
  const { signature } = signatureFor(voidId(req), canonical, s.signer);
  const inutNFe = buildInutNFe(canonical, signature);
  let reply;
  try {
    reply = await (await clientOf(s, null)).voidNumbers(inutNFe);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer the voiding: ${(err as Error).message}`);
  }
  const outcome = outcomeOf(reply.cStat);
  return {
    outcome,
    cStat: reply.cStat,
    xMotivo: reply.xMotivo,
    protocol: reply.protocol,
    proc:
      outcome === 'VOIDED'
        ? `<procInutNFe xmlns="${NFE_NS}" versao="4.00">${withoutNs(inutNFe)}${withoutNs(reply.xml)}</procInutNFe>`
        : null,
  };
}

/** 502 SEFAZ_UNAVAILABLE for an answer of the authority out of service (108/109). */
export const voidingUnavailable = (a: Pick<VoidingAnswer, 'cStat' | 'xMotivo'>) =>
  new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority is unavailable: ${a.cStat} ${a.xMotivo}`, {
    cStat: a.cStat,
    xMotivo: a.xMotivo,
  });

/** 422 SEFAZ_REJECTED for a voiding the authority refused. */
export const voidingRefused = (a: Pick<VoidingAnswer, 'cStat' | 'xMotivo'>) =>
  new BusinessRuleError('SEFAZ_REJECTED', `The authority refused the voiding: ${a.cStat} ${a.xMotivo}`, {
    cStat: a.cStat,
    xMotivo: a.xMotivo,
  });
