import zlib from 'node:zlib';

/*
 * A small deterministic ZIP writer (PKWARE APPNOTE 6.3.x, no ZIP64): the accountant's package must give
 * the same bytes for the same request (issue 47), so every entry carries the same fixed DOS timestamp
 * (1980-01-01 00:00), no extra fields, no comment, and the entries are written in the order given.
 * yazl is only a devDependency (the tests read with yauzl, a dependency); this is the production writer.
 * Entries are deflated (node:zlib raw deflate, level 9, deterministic for a given zlib) unless that does
 * not make them smaller, then stored. Names are UTF-8 (general purpose flag bit 11).
 */

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const UTF8 = 0x0800;
const LIMIT = 0xffff_ffff;

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.name)) throw new Error(`zip: duplicate entry ${e.name}`);
    seen.add(e.name);
    const name = Buffer.from(e.name, 'utf8');
    const crc = zlib.crc32(e.data) >>> 0;
    const deflated = zlib.deflateRawSync(e.data, { level: 9 });
    const method = deflated.length < e.data.length ? 8 : 0;
    const body = method === 8 ? deflated : e.data;
    if (body.length >= LIMIT || e.data.length >= LIMIT || offset >= LIMIT) throw new Error('zip: entry too large for a ZIP without ZIP64');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(UTF8, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(UTF8, 8);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt16LE(DOS_TIME, 12);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(e.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    // extra, comment, disk, internal attributes: 0; external attributes: 0; local header offset:
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(central);
  if (entries.length > 0xffff) throw new Error('zip: too many entries for a ZIP without ZIP64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
