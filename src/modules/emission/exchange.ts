import { UpstreamError } from '../../core/errors';
import { AuthorityClient, NFE_NS, NoAnswerError, type AuthorizationReply, type ProtocolResult } from '../authority';

/*
 * The exchange every document kind has with its authorizer (SPEC §12.2), written once: the signed XML
 * goes out (never inside a transaction: the client refuses to run while one is open), the reply is
 * read, and a lost answer (NoAnswerError: the outcome is unknown) is settled by consulting the key
 * before anything else — when the authority does not hold the key, the same XML (same key, same
 * number) goes once more on a fresh connection. What differs per kind is its rules
 * (AuthorizationRules): when a lost answer is consulted, what a refusal means, the wording.
 */

/** Codes of a denial (uso denegado): the number is used, the document is not valid. */
export const DENIED = new Set(['110', '205', '301', '302', '303']);

export type Authorized = { kind: 'AUTHORIZED'; prot: ProtocolResult };
export type Rejected = { kind: 'REJECTED'; cStat: string; xMotivo: string };

/**
 * What the authority says of a key (NFeConsultaProtocolo4). `said`: its reply as it came, the
 * situation's code and the protocol it carried (a kind may read them otherwise than this classification).
 */
export type Standing = { said?: { cStat: string; protocol: ProtocolResult | null } } & (
  | { kind: 'AUTHORIZED' | 'DENIED'; prot: ProtocolResult }
  | { kind: 'DOWN'; cStat: string; xMotivo: string }
  /** No verdict; `absent`: the authority answered that it does not hold the key (217); `unanswered`: no reply at all. */
  | { kind: 'UNKNOWN'; reason: string; absent?: boolean; unanswered?: boolean }
);

/** The one consultation of a key: authorized (the situation 100/101/150/151 with protocol 100), denied, not held, down, or unknown. */
export async function consult(client: AuthorityClient, accessKey: string): Promise<Standing> {
  try {
    const s = await client.situation(accessKey);
    const held = s.protocol;
    const said = { cStat: s.cStat, protocol: held };
    if ((s.cStat === '100' || s.cStat === '101' || s.cStat === '150' || s.cStat === '151') && held?.cStat === '100')
      return { kind: 'AUTHORIZED', prot: held, said };
    if (held && DENIED.has(held.cStat)) return { kind: 'DENIED', prot: held, said };
    if (s.cStat === '217')
      return { kind: 'UNKNOWN', reason: 'consulta: 217 NF-e nao consta na base de dados da SEFAZ', absent: true, said };
    if (s.cStat === '108' || s.cStat === '109') return { kind: 'DOWN', cStat: s.cStat, xMotivo: s.xMotivo, said };
    return { kind: 'UNKNOWN', reason: `consulta: ${s.cStat} ${s.xMotivo}`, said };
  } catch (err) {
    if (err instanceof NoAnswerError || err instanceof UpstreamError)
      return { kind: 'UNKNOWN', reason: `consulta sem resposta: ${(err as Error).message}`, unanswered: true };
    throw err;
  }
}

/** The lost answer's consultation says the key is not held: the same XML once more, on a fresh connection. */
export const RESEND = Symbol('resend');

/** What a document kind decides in the exchange; V is its verdict (AUTHORIZED and REJECTED among them). */
export interface AuthorizationRules<D, V> {
  /** Whether a lost answer is consulted at once (`fresh`: this was already the attempt on a fresh connection). */
  consultsLostAnswer(err: NoAnswerError, fresh: boolean): boolean;
  /** What a lost answer comes to, given the consultation (null: not consulted): a verdict, or RESEND. */
  lostAnswer(err: NoAnswerError, known: Standing | null, fresh: boolean): V | typeof RESEND;
  /** Another failure to reach the authority: its verdict, or undefined to let the error propagate. */
  unreached?(err: unknown): V | undefined;
  /** The reply has come (a crash test stops here). */
  replied?(): void;
  /** A protocol other than an authorization (100): a denial, a duplicity the key's record settles, a rejection. */
  refused(prot: ProtocolResult, doc: D, ask: (accessKey: string) => Promise<Standing>): Promise<V | Rejected>;
  /** The lot not processed because the authority is down (108/109). */
  down(reply: AuthorizationReply): V;
}

/** Sends one signed document (a lot of one, synchronous) and reads the verdict under the kind's rules. */
export async function transmit<D extends { id: number; accessKey: string }, V>(
  client: AuthorityClient,
  doc: D,
  signedXml: string,
  rules: AuthorizationRules<D, V>,
  fresh = false,
): Promise<V | Authorized | Rejected> {
  let reply: AuthorizationReply;
  try {
    reply = await client.authorize(signedXml, String(doc.id), fresh);
  } catch (err) {
    if (!(err instanceof NoAnswerError)) {
      const verdict = rules.unreached?.(err);
      if (verdict === undefined) throw err;
      return verdict;
    }
    const known = rules.consultsLostAnswer(err, fresh) ? await consult(client, doc.accessKey) : null;
    const verdict = rules.lostAnswer(err, known, fresh);
    return verdict === RESEND ? transmit(client, doc, signedXml, rules, true) : verdict;
  }
  rules.replied?.();
  const prot = reply.protocol;
  if (prot) return prot.cStat === '100' ? { kind: 'AUTHORIZED', prot } : rules.refused(prot, doc, (key) => consult(client, key));
  if (reply.cStat === '108' || reply.cStat === '109') return rules.down(reply);
  return { kind: 'REJECTED', cStat: reply.cStat, xMotivo: reply.xMotivo };
}

/** The distributed document: the signed NF-e/NFC-e and the authority's protocol in one nfeProc. */
export const procOf = (signedNfe: string, protXml: string) =>
  `<nfeProc xmlns="${NFE_NS}" versao="4.00">${signedNfe.replace(/^<\?xml[^>]*>/, '')}${protXml}</nfeProc>`;
