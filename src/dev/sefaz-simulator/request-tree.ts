import { asArray, childAt, readXml, textAt, type XNode } from '../../modules/fiscal-xml';

/*
 * The simulator's reading of a request on the project's sax tree (fiscal-xml/xml-document.ts): the
 * SOAP envelope and the message in it parsed once, elements found by local name (the tree strips
 * prefixes), as readSoapBody finds them on xmldom's DOM.
 */

/** The first element named `name` below `node`, depth first in document order; null when there is none. */
export function firstDescendant(node: unknown, name: string): XNode | null {
  if (!node || typeof node !== 'object') return null;
  for (const key of Object.keys(node)) {
    if (key === '$' || key === '_') continue;
    for (const v of asArray((node as XNode)[key])) {
      if (key === name) return typeof v === 'object' && v !== null ? (v as XNode) : ({ _: v } as XNode);
      const inner = firstDescendant(v, name);
      if (inner) return inner;
    }
  }
  return null;
}

/**
 * The message `name` of a request: inside the SOAP Body (any SOAP version or prefix), or the bare
 * message when it is the root (some gateways strip the envelope). A SOAP Fault, another root or a body
 * without the message throws, with readSoapBody's reasons.
 */
export function soapMessage(xml: string, name: string): XNode {
  const tree = readXml(xml);
  const rootName = Object.keys(tree)[0];
  const root = childAt(tree, rootName)!;
  const body = rootName === 'Envelope' ? childAt(root, 'Body') : null;
  if (!body) {
    if (rootName === name) return root;
    throw new Error(`The reply is not a SOAP envelope (root ${rootName})`);
  }
  const fault = childAt(body, 'Fault');
  if (fault) throw new Error(textAt(firstDescendant(fault, 'Text')) ?? textAt(firstDescendant(fault, 'faultstring')) ?? 'SOAP Fault');
  const found = firstDescendant(body, name);
  if (!found)
    throw new Error(
      `The reply has no ${name} (body: ${
        Object.keys(body)
          .filter((k) => k !== '$' && k !== '_')
          .join(', ') || 'empty'
      })`,
    );
  return found;
}
