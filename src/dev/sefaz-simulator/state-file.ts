import fs from 'node:fs';
import path from 'node:path';
import { logger } from '../../core/logger';
import { cnpjOfCertificatePem } from '../../modules/sefaz';

/*
 * Where the simulator's per-note CPU went besides the signature (issue 51): the whole state rewritten
 * synchronously after every note, and the CNPJ of the same two certificates read with node-forge on
 * every request. Both are kept here.
 */

const WRITE_DELAY_MS = 50;

/**
 * A JSON state file written in the background: save() marks the state changed and starts a write
 * (after WRITE_DELAY_MS) unless one is pending or in flight, in which case the latest state is
 * written once that one ends (the changes of a burst — the issuer's and the recipient's side of one
 * note, notes arriving meanwhile — make one write). flush() waits until what was saved is on disk: stop() calls it. A note answered right
 * before the process is killed (not stopped) may be missing from the file; the demo's file is a
 * convenience, the service keeps its own record of every note.
 */
export class StateFile<T> {
  private writing: Promise<void> | null = null;
  private dirty = false;
  /** Ends the wait before a write (flush does not wait for it). */
  private hurry: (() => void) | null = null;

  constructor(
    private readonly file: string | undefined,
    private readonly snapshot: () => T,
  ) {}

  /** The state saved by an earlier run, or null. */
  load(): T | null {
    return this.file && fs.existsSync(this.file) ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as T) : null;
  }

  save(): void {
    if (!this.file) return;
    this.dirty = true;
    this.writing ??= this.drain(this.file);
  }

  async flush(): Promise<void> {
    while (this.writing) {
      this.hurry?.();
      await this.writing;
    }
  }

  private async drain(file: string): Promise<void> {
    // A short wait first: the notes of a busy moment make one write (each write serializes the whole
    // state, which grows with every note) instead of one each.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, WRITE_DELAY_MS);
      this.hurry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.hurry = null;
    try {
      while (this.dirty) {
        this.dirty = false;
        const text = JSON.stringify(this.snapshot());
        const tmp = `${file}.tmp`;
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(tmp, text);
        await fs.promises.rename(tmp, file);
      }
    } catch (err) {
      logger.warn('the simulator could not write its state file', { file, error: (err as Error).message });
    } finally {
      this.writing = null;
    }
  }
}

const cnpjByPem = new Map<string, string | null>();

/** cnpjOfCertificatePem, once per certificate: a filial's TLS certificate and its signer's are the same few on every note. */
export function certificateCnpj(pem: string | null | undefined): string | null {
  if (!pem) return null;
  let cnpj = cnpjByPem.get(pem);
  if (cnpj === undefined) {
    cnpj = cnpjOfCertificatePem(pem);
    if (cnpjByPem.size >= 256) cnpjByPem.delete(cnpjByPem.keys().next().value!);
    cnpjByPem.set(pem, cnpj);
  }
  return cnpj;
}
