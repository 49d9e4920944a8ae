import crypto from 'node:crypto';
import zlib from 'node:zlib';

/*
 * The XML is stored gzip-compressed, byte for byte as received: a signed document re-serialised no
 * longer verifies. gzip is also what a DF-e docZip carries (base64 of it), so a document fetched from
 * the tax authority is stored without recompressing.
 */

export const compressXml = (xml: string): Buffer => zlib.gzipSync(Buffer.from(xml, 'utf8'));

export const decompressXml = (stored: Buffer): string => zlib.gunzipSync(stored).toString('utf8');

export const xmlSha256 = (xml: string): string => crypto.createHash('sha256').update(xml, 'utf8').digest('hex');
