import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { logger } from '../../../core/logger';
import { SignatureResult, verifyNfeSignature } from '../../fiscal-xml';

/*
 * Signature checks of large documents run on a worker thread. On a 990-item invoice the check (a sax
 * pass with C14N on the fly and RSA, ~65 ms of CPU; a few hundred through the DOM when the outline
 * declines) would stall every other request for that long in the request's thread, and it can run
 * on the second core while the request's thread reads the invoice. One worker, started on first use; small documents (most invoices)
 * are checked in-process, where the hop would cost more than it saves. If the worker fails, checks
 * fall back to the request's thread: the outcome is the same function's either way.
 */

/** Documents at least this large are checked off-thread. */
export const OFF_THREAD_MIN_BYTES = 200 * 1024;

type Pending = { resolve: (r: SignatureResult) => void; reject: (e: Error) => void };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
  worker = null;
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const ext = path.extname(__filename);
  // Under ts-node (npm start, the tests) the worker compiles its TypeScript the same way.
  const w = new Worker(path.join(__dirname, `signature-worker${ext}`), { execArgv: ext === '.ts' ? ['-r', 'ts-node/register'] : [] });
  w.on('message', (m: { id: number; result?: SignatureResult; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.result) p.resolve(m.result);
    else p.reject(new Error(m.error ?? 'signature worker failed'));
  });
  w.on('error', (err) => {
    logger.warn('signature worker failed; checking in-process', { err: err.message });
    failAll(err);
  });
  w.on('exit', (code) => {
    if (worker === w) failAll(new Error(`signature worker exited (${code})`));
  });
  // An idle worker never keeps the process alive.
  w.unref();
  worker = w;
  return w;
}

/** verifyNfeSignature on the worker thread (in-process for small documents or if the worker fails). */
export async function verifyNfeSignatureOffThread(
  xml: string,
  infNFeId: string,
  minBytes = OFF_THREAD_MIN_BYTES,
): Promise<SignatureResult> {
  if (xml.length < minBytes) return verifyNfeSignature(xml, infNFeId);
  try {
    const w = ensureWorker();
    const id = nextId++;
    return await new Promise<SignatureResult>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, xml, infNFeId });
    });
  } catch {
    return verifyNfeSignature(xml, infNFeId);
  }
}

export const signatureWorkerRunning = (): boolean => worker !== null;

/** Stops the worker (tests, shutdown). */
export async function stopSignatureWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
