import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { sefazConfig } from '../../../core/config/sefaz';
import { decodeText } from '../xml/dom';

/*
 * HTTPS POST with mutual TLS (the filial's A1 as client certificate), a deadline per attempt and
 * retries with exponential back-off on network failures and gateway errors (502/503/504). A SOAP
 * reply of any other status — a Fault included — is an answer and is never retried.
 */

export interface TlsTarget {
  url: string;
  /** The only CAs trusted for this URL (the simulator's); absent → system roots + SEFAZ_CA_FILE. */
  ca?: string[];
  keyPem: string;
  certPem: string;
  chainPems: string[];
}

export interface AttemptRecord {
  attempt: number;
  status: number | null;
  response: string | null;
  error: string | null;
  durationMs: number;
}

export interface PostOptions {
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  /** Called after every attempt (the DF-e log), before any retry. */
  onAttempt?: (a: AttemptRecord) => Promise<void>;
}

export type TransportFailure = 'timeout' | 'network' | 'tls' | 'http';

export class TransportError extends Error {
  constructor(
    public readonly failure: TransportFailure,
    message: string,
    public readonly status: number | null = null,
  ) {
    super(message);
  }
}

const MAX_REPLY_BYTES = 50 * 1024 * 1024;
const RETRYABLE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
const RETRYABLE_STATUS = new Set([502, 503, 504]);

let extraRoots: string[] | null = null;
function defaultCa(): string[] | undefined {
  if (!sefazConfig.caFile) return undefined;
  extraRoots ??= [...tls.rootCertificates, fs.readFileSync(sefazConfig.caFile, 'utf8')];
  return extraRoots;
}

function classify(err: NodeJS.ErrnoException): TransportError {
  if (err instanceof TransportError) return err;
  const code = err.code ?? '';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO|ERR_OSSL/i.test(code) || /certificate|handshake|alert/i.test(err.message)) {
    return new TransportError('tls', `TLS failure: ${code || err.message}`);
  }
  return new TransportError('network', `Network failure: ${code || err.message}`);
}

/*
 * One TLS context per (client certificate, trusted CAs): building it parses the A1's key and every CA
 * certificate, which cost more CPU than the rest of a counter sale's NFC-e exchange (bench/RESULTS.md,
 * 2026-11-28). Connections stay one per request (no keep-alive: a reused socket the authority had
 * closed would turn an authorization into an unknown outcome).
 */
const contexts = new Map<string, tls.SecureContext>();
const MAX_CONTEXTS = 256;
function secureContextOf(target: TlsTarget, ca: string[] | undefined): tls.SecureContext {
  const cert = [target.certPem, ...target.chainPems].join('\n');
  const k = crypto
    .createHash('sha256')
    .update(target.keyPem)
    .update('\0')
    .update(cert)
    .update('\0')
    .update((ca ?? []).join('\n'))
    .digest('base64');
  let ctx = contexts.get(k);
  if (!ctx) {
    ctx = tls.createSecureContext({ key: target.keyPem, cert, ca });
    if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value!);
    contexts.set(k, ctx);
  }
  return ctx;
}

function postOnce(target: TlsTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  const url = new URL(target.url);
  const ca = target.ca ?? defaultCa();
  return new Promise((resolve, reject) => {
    // tls.connect takes the cached context (https passes its options through; the types do not list it).
    const options: https.RequestOptions & { secureContext: tls.SecureContext } = {
      method: 'POST',
      host: url.hostname,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      secureContext: secureContextOf(target, ca),
      servername: /^[\d.]+$/.test(url.hostname) ? undefined : url.hostname,
      agent: false,
      timeout: timeoutMs,
    };
    const req = https.request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_REPLY_BYTES) req.destroy(new TransportError('http', 'The reply exceeds the size limit', res.statusCode ?? null));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: decodeText(Buffer.concat(chunks)) }));
      res.on('error', (e) => reject(classify(e)));
    });
    // One deadline for the whole exchange, not only for idle sockets.
    const deadline = setTimeout(() => req.destroy(new TransportError('timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new TransportError('timeout', `No answer within ${timeoutMs} ms`)));
    req.on('error', (e) => reject(classify(e)));
    req.end(body);
  });
}

const retryable = (e: TransportError) => e.failure === 'timeout' || (e.failure === 'network' && (RETRYABLE_CODES.has(e.message.replace(/^Network failure: /, '')) || /hang up/i.test(e.message)));

export async function postWithRetries(target: TlsTarget, headers: Record<string, string>, body: string, opts: PostOptions = {}): Promise<{ status: number; body: string }> {
  const retries = opts.retries ?? sefazConfig.retries;
  const base = opts.retryBaseMs ?? sefazConfig.retryBaseMs;
  const timeoutMs = opts.timeoutMs ?? sefazConfig.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    let outcome: { status: number; body: string } | null = null;
    let failure: TransportError | null = null;
    try {
      outcome = await postOnce(target, headers, body, timeoutMs);
    } catch (err) {
      failure = classify(err as NodeJS.ErrnoException);
    }
    await opts.onAttempt?.({
      attempt,
      status: outcome?.status ?? null,
      response: outcome?.body ?? null,
      error: failure?.message ?? null,
      durationMs: Date.now() - started,
    });
    const again = attempt <= retries && ((failure && retryable(failure)) || (outcome && RETRYABLE_STATUS.has(outcome.status)));
    if (!again) {
      if (failure) throw failure;
      return outcome!;
    }
    // Exponential back-off with jitter: base, 2·base, 4·base … (+ up to 25 %).
    const delay = base * 2 ** (attempt - 1);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay * 0.25));
  }
}
