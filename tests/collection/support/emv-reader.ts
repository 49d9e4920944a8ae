/*
 * An EMV QRCPS-MPM reader for the tests, written apart from the encoder (src/modules/collection/
 * pix-brcode.ts) so that a shared mistake cannot pass: it walks the payload as bytes, checks each
 * length against the bytes that follow, and recomputes the CRC with a table (the encoder shifts bit
 * by bit). It answers every top-level field and the templates 26 and 62 opened.
 */

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    t[n] = c & 0xffff;
  }
  return t;
})();

export function crcCcittFalse(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ b) & 0xff];
  return crc;
}

export interface EmvField {
  id: string;
  length: number;
  value: string;
}

/** Data objects of a byte run; throws on a length that runs past the end or a non-digit header. */
export function readObjects(bytes: Buffer): EmvField[] {
  const out: EmvField[] = [];
  let i = 0;
  while (i < bytes.length) {
    if (i + 4 > bytes.length) throw new Error(`truncated header at byte ${i}`);
    const head = bytes.subarray(i, i + 4).toString('latin1');
    if (!/^\d{4}$/.test(head)) throw new Error(`bad header "${head}" at byte ${i}`);
    const id = head.slice(0, 2);
    const length = Number(head.slice(2));
    if (i + 4 + length > bytes.length) throw new Error(`field ${id} runs past the end`);
    out.push({ id, length, value: bytes.subarray(i + 4, i + 4 + length).toString('utf8') });
    i += 4 + length;
  }
  return out;
}

export interface ParsedBrCode {
  fields: Record<string, string>;
  order: string[];
  account: Record<string, string>;
  additional: Record<string, string>;
  crcOk: boolean;
  crc: string;
}

export function parseBrCode(payload: string): ParsedBrCode {
  const bytes = Buffer.from(payload, 'utf8');
  const objects = readObjects(bytes);
  const fields: Record<string, string> = {};
  for (const o of objects) {
    if (o.id in fields) throw new Error(`field ${o.id} twice`);
    fields[o.id] = o.value;
  }
  const last = objects[objects.length - 1];
  if (!last || last.id !== '63' || last.length !== 4) throw new Error('the payload does not end with the CRC (63, 4 bytes)');
  const covered = bytes.subarray(0, bytes.length - 4);
  const crc = crcCcittFalse(covered).toString(16).toUpperCase().padStart(4, '0');
  const open = (id: string) =>
    fields[id] === undefined ? {} : Object.fromEntries(readObjects(Buffer.from(fields[id], 'utf8')).map((o) => [o.id, o.value]));
  return { fields, order: objects.map((o) => o.id), account: open('26'), additional: open('62'), crcOk: crc === last.value, crc };
}
