import busboy from 'busboy';
import yauzl from 'yauzl';
import { nfeConfig } from '../../../core/config/nfe';
import { AppError, BusinessRuleError, ValidationError } from '../../../core/errors';

/*
 * Reading a batch upload into its files, defensively: a ZIP (yauzl, from the buffer) or a multipart
 * set (busboy). Nothing is ever written to disk, so an entry's name is only a label — but a name that
 * tries a path trick (absolute, `..`, backslashes, control characters) is reported, not read. ZIP
 * bombs are refused as a whole: more files than allowed, a compression ratio or a total uncompressed
 * size above the limits, or an entry that inflates beyond the size its header declares (the inflater
 * is stopped there). Entries that are not XML (by name, or by content) are
 * reported INVALID and not read further.
 */

export interface UploadedEntry {
  name: string;
  size: number;
  content: Buffer | null;
  problem: { code: string; message: string } | null;
}

export interface Upload {
  format: 'ZIP' | 'MULTIPART';
  entries: UploadedEntry[];
}

export type UploadLimits = typeof nfeConfig.batch;

const tooMany = (l: UploadLimits) =>
  new BusinessRuleError('BATCH_TOO_MANY_FILES', `A batch takes at most ${l.maxFiles} files`, { maxFiles: l.maxFiles });
const bomb = (detail: string) => new BusinessRuleError('BATCH_ZIP_BOMB', `The ZIP was refused: ${detail}`);
const tooLarge = (l: UploadLimits) =>
  new AppError(
    'too_large',
    'BATCH_TOO_LARGE',
    `The files of a batch may add up to ${Math.floor(l.maxTotalBytes / 1048576)} MB uncompressed`,
    { maxTotalBytes: l.maxTotalBytes },
  );

/** Names are labels only (never paths on disk); these are refused all the same. */
export function unsafeEntryName(name: string): boolean {
  return (
    !name ||
    name.length > 255 ||
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
    /[\u0000-\u001f\u007f\\]/.test(name) ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((seg) => seg === '..' || seg === '.')
  );
}

const problem = (code: string, message: string) => ({ code, message });

/** The checks on a name before anything is read. */
function nameProblem(name: string): UploadedEntry['problem'] {
  if (unsafeEntryName(name))
    return problem('BATCH_ENTRY_UNSAFE_NAME', 'The entry name is absolute, climbs out of the archive or has forbidden characters');
  if (!/\.xml$/i.test(name)) return problem('BATCH_ENTRY_NOT_XML', 'Only .xml files are taken');
  return null;
}

/** The content must look like XML (after an optional BOM and whitespace). */
function contentProblem(content: Buffer): UploadedEntry['problem'] {
  const head = content
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') ? null : problem('BATCH_ENTRY_NOT_XML', 'The file does not contain XML');
}

const label = (name: string) => (name || '(unnamed)').slice(0, 255);

// ---- ZIP ----

const openZip = (body: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(body, { lazyEntries: true, decodeStrings: false, validateEntrySizes: false, strictFileNames: false }, (err, zip) =>
      err ? reject(new ValidationError(`The body is not a readable ZIP: ${err.message}`, [], 'BATCH_INVALID_ZIP')) : resolve(zip),
    ),
  );

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) {
          stream.destroy();
          reject(bomb(`entry ${label(String(entry.fileName))} inflates beyond its declared size`));
        } else chunks.push(c);
      });
      // Fewer bytes than declared: a damaged entry (more were refused above as a bomb).
      stream.on('end', () =>
        size === max ? resolve(Buffer.concat(chunks)) : reject(new Error(`the entry has ${size} bytes, its header declares ${max}`)),
      );
      stream.on('error', reject);
    });
  });
}

async function readZip(body: Buffer, l: UploadLimits): Promise<UploadedEntry[]> {
  const { maxFiles, maxFileBytes, maxTotalBytes, maxRatio } = l;
  const zip = await openZip(body);
  // The central directory's count (directories included) is known before any inflation.
  if (zip.entryCount > maxFiles * 2) {
    zip.close();
    throw tooMany(l);
  }
  const entries: UploadedEntry[] = [];
  let declaredTotal = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => reject(err instanceof AppError ? err : bomb(err.message)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const raw = entry.fileName as unknown as Buffer;
          // General purpose bit 11: the name is UTF-8; otherwise CP437, read as Latin-1 (a label only).
          const name = raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
          if (name.endsWith('/') && entry.uncompressedSize === 0) return zip.readEntry();
          if (entries.length >= maxFiles) throw tooMany(l);
          const size = entry.uncompressedSize;
          if (entry.compressedSize === 0 ? size > 0 : size / entry.compressedSize > maxRatio)
            throw bomb(`entry ${label(name)} has a compression ratio above ${maxRatio}:1`);
          declaredTotal += size;
          if (declaredTotal > maxTotalBytes) throw tooLarge(l);
          let entryProblem = nameProblem(name);
          if (!entryProblem && entry.isEncrypted()) entryProblem = problem('BATCH_ENTRY_ENCRYPTED', 'Encrypted entries are not read');
          if (!entryProblem && size > maxFileBytes)
            entryProblem = problem('BATCH_ENTRY_TOO_LARGE', `A file may have at most ${maxFileBytes} bytes`);
          let content: Buffer | null = null;
          if (!entryProblem) {
            try {
              content = await readEntry(zip, entry, size);
            } catch (err) {
              if (err instanceof AppError) throw err;
              // Corrupt data or an unsupported compression method: this entry only.
              entryProblem = problem('BATCH_ENTRY_UNREADABLE', (err as Error).message);
            }
            if (content) entryProblem = contentProblem(content);
            if (entryProblem) content = null;
          }
          entries.push({ name: label(name), size, content, problem: entryProblem });
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return entries;
}

// ---- multipart ----

function readMultipart(body: Buffer, contentType: string, l: UploadLimits): Promise<UploadedEntry[]> {
  const { maxFiles, maxFileBytes, maxTotalBytes } = l;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: maxFiles, fileSize: maxFileBytes, fields: 50, parts: maxFiles + 50 },
        defParamCharset: 'utf8',
      });
    } catch (err) {
      return reject(new ValidationError(`The multipart body cannot be read: ${(err as Error).message}`, [], 'BATCH_INVALID_MULTIPART'));
    }
    const entries: UploadedEntry[] = [];
    let total = 0;
    let failure: Error | null = null;
    parser.on('file', (_field, stream, info) => {
      const name = label(info.filename ?? '');
      const nameIssue = nameProblem(info.filename ?? '');
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        total += c.length;
        if (total > maxTotalBytes) failure ??= tooLarge(l);
        if (!nameIssue && !failure) chunks.push(c);
      });
      stream.on('limit', () => (truncated = true));
      stream.on('close', () => {
        let entryProblem =
          nameIssue ?? (truncated ? problem('BATCH_ENTRY_TOO_LARGE', `A file may have at most ${maxFileBytes} bytes`) : null);
        const content = entryProblem ? null : Buffer.concat(chunks);
        if (content) entryProblem = contentProblem(content);
        entries.push({ name, size, content: entryProblem ? null : content, problem: entryProblem });
      });
    });
    parser.on('filesLimit', () => (failure ??= tooMany(l)));
    parser.on('partsLimit', () => (failure ??= tooMany(l)));
    parser.on('error', (err: Error) =>
      reject(new ValidationError(`The multipart body cannot be read: ${err.message}`, [], 'BATCH_INVALID_MULTIPART')),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve(entries)));
    parser.end(body);
  });
}

/** The files of an upload body (a Buffer from the raw body parser). */
export async function readUpload(body: unknown, contentType: string | undefined, limits: UploadLimits = nfeConfig.batch): Promise<Upload> {
  if (!Buffer.isBuffer(body) || !body.length)
    throw new ValidationError('The body must be a ZIP or a multipart set of XML files', [], 'BATCH_EMPTY');
  const type = (contentType ?? '').toLowerCase();
  const entries = type.startsWith('multipart/form-data') ? await readMultipart(body, contentType!, limits) : await readZip(body, limits);
  if (!entries.length) throw new ValidationError('The upload has no files', [], 'BATCH_EMPTY');
  return { format: type.startsWith('multipart/') ? 'MULTIPART' : 'ZIP', entries };
}
