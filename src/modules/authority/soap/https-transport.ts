import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { sefazConfig } from '../../../core/config/sefaz';
import { assertNoOpenTransaction } from '../../../core/db/transaction';
import { decodeText } from '../xml/xml-text';

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
  /** The object the PEMs come from (the filial's credentials), if the caller keeps it: finds the pool without hashing them. */
  identity?: object;
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
  /** A new connection for this call (not a kept one): after a failure on a reused socket. */
  fresh?: boolean;
  /** Called after every attempt (the DF-e log), before any retry. */
  onAttempt?: (a: AttemptRecord) => Promise<void>;
}

export type TransportFailure = 'timeout' | 'network' | 'tls' | 'http';

export class TransportError extends Error {
  constructor(
    public readonly failure: TransportFailure,
    message: string,
    public readonly status: number | null = null,
    /** No answer on a kept-alive socket (the server may have closed it just then): the next attempt opens a new one. */
    public readonly reusedSocket = false,
  ) {
    super(message);
  }
}

const MAX_REPLY_BYTES = 50 * 1024 * 1024;
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
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
 * One TLS context and one keep-alive agent per (client certificate, trusted CAs); the agent keeps its
 * sockets per host. Building a context parses the A1's key and every CA certificate, and a new
 * connection costs a full TLS handshake (the client certificate's signature, the server chain's
 * verification, ECDHE): together more CPU than the rest of a counter sale's NFC-e exchange
 * (bench/RESULTS.md, 2026-11-28). So a connection stays open for the next call while idle less than
 * SEFAZ_KEEPALIVE_MS (below the authority's own keep-alive timeout, which the agent also reads from
 * its Keep-Alive header), and a new connection resumes the TLS session of an earlier one.
 * A reused socket can still have been closed by the server just as a request went out on it: that
 * failure (no answer at all on a reused socket) is reported with `reusedSocket`, and the next attempt
 * takes a new connection. For a call that is not harmless to repeat, the caller treats it like any
 * lost answer (an authorization: consult the key, docs/decisions/nfce-substitution.md).
 */
interface Pool {
  key: string;
  context: tls.SecureContext;
  agent: https.Agent | null;
}
const pools = new Map<string, Pool>();
const MAX_POOLS = 256;
/** The pool of a credentials object and CA list already seen (the same objects call after call). */
const byIdentity = new WeakMap<object, Map<string[] | undefined, Pool>>();
function poolOf(target: TlsTarget, ca: string[] | undefined): Pool {
  const known = target.identity ? byIdentity.get(target.identity)?.get(ca) : undefined;
  if (known && pools.get(known.key) === known) return known;
  const pool = poolByContent(target, ca);
  if (target.identity) {
    let m = byIdentity.get(target.identity);
    if (!m) byIdentity.set(target.identity, (m = new Map<string[] | undefined, Pool>()));
    m.set(ca, pool);
  }
  return pool;
}
function poolByContent(target: TlsTarget, ca: string[] | undefined): Pool {
  const cert = [target.certPem, ...target.chainPems].join('\n');
  const k = crypto
    .createHash('sha256')
    .update(target.keyPem)
    .update('\0')
    .update(cert)
    .update('\0')
    .update((ca ?? []).join('\n'))
    .digest('base64');
  let pool = pools.get(k);
  if (!pool) {
    const keepAliveMs = sefazConfig.keepAliveMs;
    pool = {
      key: k,
      context: tls.createSecureContext({ key: target.keyPem, cert, ca }),
      // lifo: the most recently used socket first, the one least likely to have been closed meanwhile.
      agent: keepAliveMs > 0 ? new https.Agent({ keepAlive: true, timeout: keepAliveMs, maxFreeSockets: 16, scheduling: 'lifo' }) : null,
    };
    if (pools.size >= MAX_POOLS) {
      const oldest = pools.keys().next().value!;
      pools.get(oldest)?.agent?.destroy();
      pools.delete(oldest);
    }
    pools.set(k, pool);
  }
  return pool;
}

/** Closes every kept connection (tests, shutdown); the next call opens new ones. */
export function closeAuthorityConnections(): void {
  for (const pool of pools.values()) pool.agent?.destroy();
  pools.clear();
}

function postOnce(
  target: TlsTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  fresh: boolean,
): Promise<{ status: number; body: string }> {
  const url = new URL(target.url);
  const ca = target.ca ?? defaultCa();
  const pool = poolOf(target, ca);
  return new Promise((resolve, reject) => {
    // tls.connect takes the cached context (https passes its options through; the types do not list it).
    const options: https.RequestOptions & { secureContext: tls.SecureContext } = {
      method: 'POST',
      host: url.hostname,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      secureContext: pool.context,
      servername: /^[\d.]+$/.test(url.hostname) ? undefined : url.hostname,
      agent: fresh || !pool.agent ? false : pool.agent,
      timeout: timeoutMs,
    };
    let answered = false;
    const req = https.request(options, (res) => {
      answered = true;
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
    req.on('error', (e) => {
      const failure = classify(e);
      // No answer at all on a kept socket: the server may have closed it as the request went out.
      reject(
        req.reusedSocket && !answered && failure.failure === 'network'
          ? new TransportError('network', failure.message, null, true)
          : failure,
      );
    });
    req.end(body);
  });
}

const retryable = (e: TransportError) =>
  e.failure === 'timeout' ||
  (e.failure === 'network' && (RETRYABLE_CODES.has(e.message.replace(/^Network failure: /, '')) || /hang up/i.test(e.message)));

export async function postWithRetries(
  target: TlsTarget,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions = {},
): Promise<{ status: number; body: string }> {
  const retries = opts.retries ?? sefazConfig.retries;
  const base = opts.retryBaseMs ?? sefazConfig.retryBaseMs;
  const timeoutMs = opts.timeoutMs ?? sefazConfig.timeoutMs;
  let fresh = opts.fresh ?? false;
  for (let attempt = 1; ; attempt++) {
    // Every call to the authority goes out here: none while a database transaction is open (SPEC §12.2).
    assertNoOpenTransaction('A call to the tax authority');
    const started = Date.now();
    let outcome: { status: number; body: string } | null = null;
    let failure: TransportError | null = null;
    try {
      outcome = await postOnce(target, headers, body, timeoutMs, fresh);
    } catch (err) {
      failure = classify(err as NodeJS.ErrnoException);
      if (failure.reusedSocket) fresh = true;
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
    // A kept socket found closed: a new connection at once.
    if (failure?.reusedSocket) continue;
    // Exponential back-off with jitter: base, 2·base, 4·base … (+ up to 25 %).
    const delay = base * 2 ** (attempt - 1);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay * 0.25));
  }
}
