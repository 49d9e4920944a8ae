import { Document, DOMParser, Element, Node } from '@xmldom/xmldom';
import { assertNoDoctype } from '../../fiscal-xml';

/*
 * Small, namespace-agnostic DOM helpers for the authority's messages. The authority answers in SOAP
 * 1.1 or 1.2, prefixed or not, compact or pretty-printed: elements are found by local name only.
 */

export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';

export class XmlReadError extends Error {}

/** Parses text into a DOM, refusing DOCTYPE/entities and anything not well-formed. */
export function parseDom(xml: string): Document {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  assertNoDoctype(text);
  let failure: string | null = null;
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') failure ??= message;
    },
  }).parseFromString(text, 'text/xml') as unknown as Document;
  if (failure || !doc?.documentElement) throw new XmlReadError(`XML is not well-formed: ${failure ?? 'no root element'}`);
  return doc;
}

/** The root element of a parsed document. */
export const parseRoot = (xml: string): Element => parseDom(xml).documentElement as Element;

export function childElements(node: Node, localName?: string): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (!localName || (c as Element).localName === localName)) out.push(c as Element);
  }
  return out;
}

export const child = (node: Node, localName: string): Element | undefined => childElements(node, localName)[0];

/** First descendant (depth-first) with this local name, the node itself included. */
export function findFirst(node: Node, localName: string): Element | undefined {
  if (node.nodeType === 1 && (node as Element).localName === localName) return node as Element;
  for (let c = node.firstChild; c; c = c.nextSibling) {
    const hit = c.nodeType === 1 ? findFirst(c, localName) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

export function findAll(node: Node, localName: string, out: Element[] = []): Element[] {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    if ((c as Element).localName === localName) out.push(c as Element);
    findAll(c, localName, out);
  }
  return out;
}

/** Trimmed text of a direct child, or null when absent/empty. */
export function childText(node: Node | undefined, localName: string): string | null {
  const el = node ? child(node, localName) : undefined;
  const text = el?.textContent?.trim();
  return text ? text : null;
}

/** Text of the first descendant with this local name. */
export function deepText(node: Node | undefined, localName: string): string | null {
  const el = node ? findFirst(node, localName) : undefined;
  const text = el?.textContent?.trim();
  return text ? text : null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * The exact text of the first element named `localName` (any prefix), start tag to end tag. Signed
 * XML must be taken out of its envelope byte for byte: re-serialising it would break its digest.
 */
export function extractElementText(xml: string, localName: string): string | null {
  const open = new RegExp(`<((?:[A-Za-z_][\\w.-]*:)?${localName})(?=[\\s>/])`);
  const m = open.exec(xml);
  if (!m) return null;
  const qname = m[1];
  const selfClosing = xml.indexOf('>', m.index);
  if (selfClosing > 0 && xml[selfClosing - 1] === '/') return xml.slice(m.index, selfClosing + 1);
  // Nested elements of the same name are counted so the matching end tag is found.
  const tags = new RegExp(`<(/?)${qname.replace('.', '\\.')}(?=[\\s>/])[^>]*?(/?)>`, 'g');
  tags.lastIndex = m.index;
  let depth = 0;
  for (let t = tags.exec(xml); t; t = tags.exec(xml)) {
    if (t[1]) depth--;
    else if (!t[2]) depth++;
    if (depth === 0) return xml.slice(m.index, t.index + t[0].length);
  }
  return null;
}

/** Bytes from the wire as text: UTF-8, falling back to Latin-1 when a reply is not valid UTF-8. */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}
