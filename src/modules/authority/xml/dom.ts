import { Document, DOMParser, Element, Node } from '@xmldom/xmldom';
import { assertNoDoctype } from '../../fiscal-xml';
import { XmlReadError } from './xml-text';

/*
 * The authority's one DOM: `parseDom` feeds the signature verifier (xmldsig.ts
 * verifyEnvelopedSignatures → fiscal-xml's verifyEnvelopedInDocument: xml-crypto canonicalizes a
 * DOM). The authority's own readers do not use it — messages and replies are read by reply.ts,
 * documents by fiscal-xml's sax tree. `parseRoot` and `childElements` are the DOM oracle
 * of tests/sefaz/reply-reader.test.ts (the simulator reads its requests on the sax tree too).
 */

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
