import { SoapFault } from './soap';
import { XmlReadError } from './xml-text';

/*
 * The authority's messages, read in one place and in one pass without a DOM: the SOAP envelope (1.1 or
 * 1.2, prefixed or not), its Fault, and the message inside — the replies the clients read (what each
 * says is answers.ts) and, on the simulator's side, the requests (envEvento, inutNFe, distDFeInt:
 * events.ts, outbound.ts, dist-dfe.ts). The pass checks the text is well-formed (tags matched, one
 * root, known entities); comments and processing instructions are skipped, CDATA is text, a DOCTYPE
 * is refused. Elements are found by local name; every node keeps its offsets, so a signed part
 * (protNFe, retEvento, retInutNFe, a received evento) is taken out of the text byte for byte.
 * Documents (an NF-e, a distributed docZip) are not read here: fiscal-xml's sax tree reads those.
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

/** The message element `name` inside a SOAP request or reply (the simulator's reading of requests): readReply's message. */
export const readSoapBody = (xml: string, name: string): ReplyNode => readReply(xml, name).message;

/**
 * The exact text of the first element named `localName` (any prefix), start tag to end tag, or null
 * when there is none. Signed XML must be taken out of its envelope byte for byte: re-serialising it
 * would break its digest. The text must be well-formed (XmlReadError otherwise).
 */
export function extractElementText(xml: string, localName: string): string | null {
  const node = firstOf(parseReply(xml), localName);
  return node ? xml.slice(node.start, node.end) : null;
}
