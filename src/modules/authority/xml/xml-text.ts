/*
 * What every builder and reader of the authority's XML shares, DOM or not: the NF-e namespace, the
 * escaping of text and attribute values, the decoding of bytes from the wire, and the error an
 * unreadable message raises.
 */

export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';

export class XmlReadError extends Error {}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Bytes from the wire as text: UTF-8, falling back to Latin-1 when a reply is not valid UTF-8. */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}
