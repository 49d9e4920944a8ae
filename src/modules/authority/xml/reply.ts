import { XmlReadError } from './dom';
import { SoapFault } from './soap';
import { readDfeDocument, unzipDoc, type DistResult } from './dist-dfe';
import type { EnvEventoResult } from './events';
import type { AuthorizationReply, ProtocolResult, SituationReply, StatusReply, VoidReply } from './outbound';

/*
 * The authority's replies, read in one place and in one pass without a DOM: the SOAP envelope (1.1 or
 * 1.2, prefixed or not), its Fault, and the messages the clients read (retEnviNFe, retConsSitNFe,
 * retConsStatServ, retInutNFe, retEnvEvento, retDistDFeInt). The pass checks the text is well-formed
 * (tags matched, one root, known entities); comments and processing instructions are skipped, CDATA
 * is text, a DOCTYPE is refused. Elements are found by local name; every node keeps its offsets, so a
 * signed part (protNFe, retEvento, retInutNFe) is taken out of the reply byte for byte.
 * Documents (an NF-e, a distributed docZip) are not read here: fiscal-xml and dom.ts read those.
 */

export interface ReplyNode {
  /** Local name (the prefix dropped). */
  name: string;
  /** Attributes by local name (namespace declarations left out). */
  attrs: Record<string, string>;
  children: ReplyNode[];
  /** The element's own character data, entities decoded. */
  text: string;
  /** Offsets of the element in the reply, start tag to end tag. */
  start: number;
  end: number;
}

const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTR = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6})|[A-Za-z_][\w.-]*);|&/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  if (text.indexOf('&') < 0) return text.indexOf('\r') < 0 ? text : text.replace(/\r\n?/g, '\n');
  return text
    .replace(ENTITY, (m: string, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
      if (named) return NAMED[named];
      // A bare ampersand is read as itself, as the DOM reads it (some authorities send xMotivo unescaped).
      if (m === '&') return m;
      const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : NaN;
      if (!Number.isFinite(code) || code > 0x10ffff) throw new XmlReadError(`XML is not well-formed: unknown entity ${m.slice(0, 12)}`);
      return String.fromCodePoint(code);
    })
    .replace(/\r\n?/g, '\n');
}

const localOf = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** The reply's root element; text that is not well-formed throws XmlReadError. */
export function parseReply(raw: string): ReplyNode {
  let pos = raw.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: { node: ReplyNode; qname: string }[] = [];
  let root: ReplyNode | undefined;
  const bad = (why: string): never => {
    throw new XmlReadError(`XML is not well-formed: ${why}`);
  };
  while (pos < raw.length) {
    const lt = raw.indexOf('<', pos);
    const segment = lt < 0 ? raw.slice(pos) : raw.slice(pos, lt);
    if (segment) {
      if (stack.length) stack[stack.length - 1].node.text += decode(segment);
      else if (segment.trim()) bad('text outside the root element');
    }
    if (lt < 0) break;
    if (raw.startsWith('<!--', lt)) {
      const close = raw.indexOf('-->', lt + 4);
      if (close < 0) bad('unclosed comment');
      pos = close + 3;
    } else if (raw.startsWith('<![CDATA[', lt)) {
      const close = raw.indexOf(']]>', lt + 9);
      if (close < 0 || !stack.length) bad('CDATA outside an element');
      stack[stack.length - 1].node.text += raw.slice(lt + 9, close);
      pos = close + 3;
    } else if (raw[lt + 1] === '!') {
      bad('a DOCTYPE or declaration is not accepted');
    } else if (raw[lt + 1] === '?') {
      // The XML declaration and processing instructions say nothing the reading needs.
      const close = raw.indexOf('?>', lt + 2);
      if (close < 0) bad('unclosed processing instruction');
      pos = close + 2;
    } else if (raw[lt + 1] === '/') {
      NAME.lastIndex = lt + 2;
      const m = NAME.exec(raw);
      const open = stack.pop();
      if (!m || !open || open.qname !== m[0]) bad(`unexpected end tag ${m?.[0] ?? ''}`);
      const close = raw.indexOf('>', NAME.lastIndex);
      if (close < 0 || raw.slice(NAME.lastIndex, close).trim()) bad(`malformed end tag ${m![0]}`);
      pos = close + 1;
      open!.node.end = pos;
    } else {
      NAME.lastIndex = lt + 1;
      const m = NAME.exec(raw);
      if (!m) bad('malformed start tag');
      const node: ReplyNode = { name: localOf(m![0]), attrs: {}, children: [], text: '', start: lt, end: -1 };
      let at = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = at;
        const a = ATTR.exec(raw);
        if (!a) break;
        // Namespace declarations are not attributes here: elements are found by local name.
        if (a[1] !== 'xmlns' && !a[1].startsWith('xmlns:')) node.attrs[localOf(a[1])] = decode(a[2] ?? a[3]);
        at = ATTR.lastIndex;
      }
      TAG_END.lastIndex = at;
      const end = TAG_END.exec(raw);
      if (!end) bad(`malformed start tag ${m![0]}`);
      pos = TAG_END.lastIndex;
      if (stack.length) stack[stack.length - 1].node.children.push(node);
      else if (root) bad('more than one root element');
      else root = node;
      if (end![1]) node.end = pos;
      else stack.push({ node, qname: m![0] });
    }
  }
  if (stack.length || !root) bad(root ? `unclosed element ${stack[stack.length - 1].qname}` : 'no root element');
  return root!;
}

export const childrenOf = (node: ReplyNode | undefined, name: string): ReplyNode[] => node?.children.filter((c) => c.name === name) ?? [];

export const childOf = (node: ReplyNode | undefined, name: string): ReplyNode | undefined => node?.children.find((c) => c.name === name);

/** First element of this name, depth-first, the node itself included. */
export function firstOf(node: ReplyNode | undefined, name: string): ReplyNode | undefined {
  if (!node) return undefined;
  if (node.name === name) return node;
  for (const c of node.children) {
    const hit = firstOf(c, name);
    if (hit) return hit;
  }
  return undefined;
}

/** All character data inside the element (textContent). */
export const textOf = (node: ReplyNode): string => node.text + node.children.map(textOf).join('');

/** Trimmed text of a direct child, or null when absent/empty. */
export function valueOf(node: ReplyNode | undefined, name: string): string | null {
  const c = childOf(node, name);
  const text = c ? textOf(c).trim() : '';
  return text ? text : null;
}

/** An authority's reply: the message element inside its envelope, and the text it came in. */
export interface Reply {
  raw: string;
  message: ReplyNode;
}

/** The message `name` inside the reply's Body (or the bare message); a SOAP Fault or a reply without it throws. */
export function readReply(raw: string, name: string): Reply {
  const root = parseReply(raw);
  const body = root.name === 'Envelope' ? childOf(root, 'Body') : undefined;
  if (!body) {
    // A bare message (no envelope) is accepted: some gateways strip it.
    if (root.name === name) return { raw, message: root };
    throw new XmlReadError(`The reply is not a SOAP envelope (root ${root.name})`);
  }
  const fault = childOf(body, 'Fault');
  if (fault) {
    const reason = firstOf(fault, 'Text') ?? firstOf(fault, 'faultstring');
    throw new SoapFault((reason ? textOf(reason).trim() : '') || 'SOAP Fault');
  }
  const message = firstOf(body, name);
  if (!message) throw new XmlReadError(`The reply has no ${name} (body: ${body.children.map((e) => e.name).join(', ') || 'empty'})`);
  return { raw, message };
}

/** The exact text of an element of the reply. */
export const exactText = (reply: Reply, node: ReplyNode): string => reply.raw.slice(node.start, node.end);

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

function protocolOf(reply: Reply, prot: ReplyNode): ProtocolResult {
  const inf = childOf(prot, 'infProt');
  return {
    tpAmb: valueOf(inf, 'tpAmb'),
    accessKey: valueOf(inf, 'chNFe'),
    receivedAt: valueOf(inf, 'dhRecbto'),
    protocol: valueOf(inf, 'nProt'),
    digest: valueOf(inf, 'digVal'),
    cStat: valueOf(inf, 'cStat') ?? '',
    xMotivo: valueOf(inf, 'xMotivo') ?? '',
    xml: exactText(reply, prot),
  };
}

/** retEnviNFe (synchronous: protNFe inside) and retConsReciNFe. */
export function authorizationOf(reply: Reply): AuthorizationReply {
  const el = reply.message;
  const prot = childOf(el, 'protNFe');
  return {
    cStat: valueOf(el, 'cStat') ?? '',
    xMotivo: valueOf(el, 'xMotivo') ?? '',
    receivedAt: valueOf(el, 'dhRecbto'),
    receipt: valueOf(childOf(el, 'infRec'), 'nRec') ?? valueOf(el, 'nRec'),
    protocol: prot ? protocolOf(reply, prot) : null,
  };
}

/** retConsSitNFe: the protocol and the events registered on the key. */
export function situationOf(reply: Reply): SituationReply {
  const el = reply.message;
  const prot = childOf(el, 'protNFe');
  return {
    cStat: valueOf(el, 'cStat') ?? '',
    xMotivo: valueOf(el, 'xMotivo') ?? '',
    accessKey: valueOf(el, 'chNFe'),
    protocol: prot ? protocolOf(reply, prot) : null,
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
    cStat: valueOf(el, 'cStat') ?? '',
    xMotivo: valueOf(el, 'xMotivo') ?? '',
    returnAt: valueOf(el, 'dhRetorno'),
    observation: valueOf(el, 'xObs'),
  };
}

/** retInutNFe, with its exact text (archived as the voiding's proof). */
export function voidingOf(reply: Reply): VoidReply {
  const inf = childOf(reply.message, 'infInut');
  return {
    cStat: valueOf(inf, 'cStat') ?? '',
    xMotivo: valueOf(inf, 'xMotivo') ?? '',
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
    cStat: valueOf(el, 'cStat') ?? '',
    xMotivo: valueOf(el, 'xMotivo') ?? '',
    events: rets.map((r) => {
      const inf = childOf(r, 'infEvento');
      const n = valueOf(inf, 'nSeqEvento');
      return {
        cStat: valueOf(inf, 'cStat') ?? '',
        xMotivo: valueOf(inf, 'xMotivo') ?? '',
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
    cStat: valueOf(el, 'cStat') ?? '',
    xMotivo: valueOf(el, 'xMotivo') ?? '',
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
