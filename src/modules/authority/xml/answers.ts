import { readDfeDocument, unzipDoc, type DistResult } from './dist-dfe';
import type { EnvEventoResult } from './events';
import type { AuthorizationReply, ProtocolResult, SituationReply, StatusReply, VoidReply } from './outbound';
import { childOf, childrenOf, exactText, firstOf, Reply, ReplyNode, textOf, valueOf } from './reply';

/*
 * What each of the authority's replies says, read from reply.ts's one pass (readReply): the
 * authorization, the situation of a key, the service status, a voiding, an event lot and a
 * distribution page. Signed parts keep their exact text.
 */

/**
 * The answer's own status, for the exchange log and the metrics: the protocol's (infProt, infInut) or
 * the event's (retEvento) when there is one — a lot's 104 or 128 only says it was processed — else the
 * message's. Null when the reply holds no status.
 */
export function answerStatus(message: ReplyNode): { cStat: string | null; xMotivo: string | null } {
  const inner =
    childOf(childOf(message, 'protNFe'), 'infProt') ??
    childOf(message, 'infInut') ??
    childOf(childOf(message, 'retEvento'), 'infEvento') ??
    message;
  const cStat = valueOf(inner, 'cStat') ?? valueOf(message, 'cStat');
  const xMotivo = valueOf(inner, 'xMotivo') ?? valueOf(message, 'xMotivo');
  return { cStat: cStat && /^\d{3}$/.test(cStat) ? cStat : null, xMotivo: xMotivo?.slice(0, 255) ?? null };
}

// ---- the messages ----

/** The status every answer carries (its cStat and xMotivo; '' when absent). */
const statusIn = (el: ReplyNode | undefined): { cStat: string; xMotivo: string } => ({
  cStat: valueOf(el, 'cStat') ?? '',
  xMotivo: valueOf(el, 'xMotivo') ?? '',
});

/** The protNFe an answer holds, read, or null. */
function protocolIn(reply: Reply, el: ReplyNode): ProtocolResult | null {
  const prot = childOf(el, 'protNFe');
  return prot ? protocolOf(reply, prot) : null;
}

function protocolOf(reply: Reply, prot: ReplyNode): ProtocolResult {
  const inf = childOf(prot, 'infProt');
  return {
    tpAmb: valueOf(inf, 'tpAmb'),
    accessKey: valueOf(inf, 'chNFe'),
    receivedAt: valueOf(inf, 'dhRecbto'),
    protocol: valueOf(inf, 'nProt'),
    digest: valueOf(inf, 'digVal'),
    ...statusIn(inf),
    xml: exactText(reply, prot),
  };
}

/** retEnviNFe (synchronous: protNFe inside) and retConsReciNFe. */
export function authorizationOf(reply: Reply): AuthorizationReply {
  const el = reply.message;
  return {
    ...statusIn(el),
    receivedAt: valueOf(el, 'dhRecbto'),
    receipt: valueOf(childOf(el, 'infRec'), 'nRec') ?? valueOf(el, 'nRec'),
    protocol: protocolIn(reply, el),
  };
}

/** retConsSitNFe: the protocol and the events registered on the key. */
export function situationOf(reply: Reply): SituationReply {
  const el = reply.message;
  return {
    ...statusIn(el),
    accessKey: valueOf(el, 'chNFe'),
    protocol: protocolIn(reply, el),
    events: childrenOf(el, 'procEventoNFe').map((p) => {
      const inf = childOf(firstOf(p, 'retEvento') ?? p, 'infEvento');
      const seq = valueOf(inf, 'nSeqEvento');
      return {
        tpEvento: valueOf(inf, 'tpEvento'),
        cStat: valueOf(inf, 'cStat'),
        protocol: valueOf(inf, 'nProt'),
        sequence: seq ? Number(seq) : null,
      };
    }),
  };
}

export function statusOf(reply: Reply): StatusReply {
  const el = reply.message;
  return {
    ...statusIn(el),
    returnAt: valueOf(el, 'dhRetorno'),
    observation: valueOf(el, 'xObs'),
  };
}

/** retInutNFe, with its exact text (archived as the voiding's proof). */
export function voidingOf(reply: Reply): VoidReply {
  const inf = childOf(reply.message, 'infInut');
  return {
    ...statusIn(inf),
    protocol: valueOf(inf, 'nProt'),
    receivedAt: valueOf(inf, 'dhRecbto'),
    xml: exactText(reply, reply.message),
  };
}

/** retEnvEvento: the lot and each event's own result, with the exact text of its retEvento. */
export function eventLotOf(reply: Reply): EnvEventoResult & { retEventos: string[] } {
  const el = reply.message;
  const rets = childrenOf(el, 'retEvento');
  return {
    idLote: valueOf(el, 'idLote'),
    tpAmb: valueOf(el, 'tpAmb'),
    verAplic: valueOf(el, 'verAplic'),
    ...statusIn(el),
    events: rets.map((r) => {
      const inf = childOf(r, 'infEvento');
      const n = valueOf(inf, 'nSeqEvento');
      return {
        ...statusIn(inf),
        accessKey: valueOf(inf, 'chNFe'),
        tpEvento: valueOf(inf, 'tpEvento'),
        xEvento: valueOf(inf, 'xEvento'),
        sequence: n ? Number(n) : null,
        registeredAt: valueOf(inf, 'dhRegEvento'),
        protocol: valueOf(inf, 'nProt'),
        recipientDocument: valueOf(inf, 'CNPJDest') ?? valueOf(inf, 'CPFDest'),
      };
    }),
    retEventos: rets.map((r) => exactText(reply, r)),
  };
}

/** retDistDFeInt: the cursor and the documents (each docZip unzipped and read as a document). */
export function distributionOf(reply: Reply): DistResult {
  const el = reply.message;
  const lot = childOf(el, 'loteDistDFeInt');
  return {
    tpAmb: valueOf(el, 'tpAmb'),
    verAplic: valueOf(el, 'verAplic'),
    ...statusIn(el),
    dhResp: valueOf(el, 'dhResp'),
    ultNSU: valueOf(el, 'ultNSU'),
    maxNSU: valueOf(el, 'maxNSU'),
    documents: childrenOf(lot, 'docZip').map((z) => ({
      nsu: z.attrs.NSU || null,
      schema: z.attrs.schema ?? '',
      ...readDfeDocument(unzipDoc(textOf(z))),
    })),
  };
}
