import { ApiConnectionError, ApiError, ProblemDocument } from './errors';

export type TokenSource = string | (() => string | Promise<string>);

export interface ClientOptions {
  /** Service root, e.g. `http://127.0.0.1:3000` (the `/api` prefix is added by the client). */
  baseUrl: string;
  /** Bearer token, or a function answering a fresh one per request. */
  token: TokenSource;
  /** Company hashid (`x-company-id`). */
  companyId: string;
  /** Governing filial hashid (`x-filial-id`); lists default to it. */
  filialId?: string;
  /**
   * Retries (default 3) of a 429 or 503 answer, and of a network failure (connection reset or refused,
   * the per-request timeout) when the call is safe to repeat: GET, PUT, DELETE, or a posting call with
   * its Idempotency-Key, which every retry sends again unchanged.
   */
  maxRetries?: number;
  /** Wait when the server gives no Retry-After, doubled per attempt (default 500 ms). */
  retryBaseDelayMs?: number;
  /**
   * The client's waiting budget for one retry (default 10 s): a 429/503 whose Retry-After is longer
   * throws at once (`ApiError.retryAfter`, in seconds) instead of blocking the caller.
   */
  maxRetryDelayMs?: number;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Chosen Idempotency-Key for a posting call (default: a new UUID per call). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type QueryParams = Record<string, string | number | boolean | undefined | null | readonly (string | number | boolean)[]>;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  body?: unknown;
  /** Posting call: send an Idempotency-Key (the same one on every retry). */
  idempotent?: boolean;
  /** A non-JSON body (an XML document, a ZIP of XML files) sent as is with its content type. */
  raw?: { data: string | Uint8Array; contentType: string };
  /** How to read the success body: JSON (default), text (XML), bytes (PDF), or the Response itself (a stream). */
  read?: 'json' | 'text' | 'bytes' | 'response';
  options?: CallOptions;
}

const RETRYABLE = new Set([429, 503]);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const newKey = () => globalThis.crypto.randomUUID();

const SAFE_METHODS = new Set(['GET', 'PUT', 'DELETE']);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A failure of the connection (not an answer): reset, refused, or the per-request timeout. */
function networkFailure(err: unknown, callerSignal?: AbortSignal): 'timeout' | 'network' | null {
  if (callerSignal?.aborted) return null;
  const e = err as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') return 'timeout';
  if (NETWORK_CODES.has(e?.code ?? '') || NETWORK_CODES.has(e?.cause?.code ?? '')) return 'network';
  if (e?.name === 'TypeError' && /fetch failed|network|socket/i.test(String((err as Error).message))) return 'network';
  return null;
}

/** The transport every module of the SDK uses: headers, JSON, problem documents, retries. */
export class HttpClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;

  constructor(readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '') + '/api';
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  get filialId(): string | undefined {
    return this.options.filialId;
  }

  async request<T>(spec: RequestSpec): Promise<T> {
    const url = new URL(this.base + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    }
    const key = spec.idempotent ? (spec.options?.idempotencyKey ?? newKey()) : undefined;
    const maxRetries = this.options.maxRetries ?? 3;
    const budget = this.options.maxRetryDelayMs ?? 10_000;
    const backoff = (attempt: number) => (this.options.retryBaseDelayMs ?? 500) * 2 ** attempt;
    const repeatable = SAFE_METHODS.has(spec.method) || key !== undefined;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.send(spec, url, key);
      } catch (err) {
        const kind = networkFailure(err, spec.options?.signal);
        if (!kind) throw err;
        if (repeatable && attempt < maxRetries) {
          await sleep(Math.min(backoff(attempt), budget), spec.options?.signal);
          continue;
        }
        throw new ApiConnectionError(kind, `${spec.method} ${spec.path}`, err, attempt + 1);
      }
      if (res.ok) {
        if (res.status === 204) return undefined as T;
        if (spec.read === 'response') return res as T;
        if (spec.read === 'bytes') return new Uint8Array(await res.arrayBuffer()) as T;
        const text = await res.text();
        if (spec.read === 'text') return text as T;
        return (text ? JSON.parse(text) : undefined) as T;
      }
      const problem = await readProblem(res);
      const wait = retryAfterMs(res.headers.get('retry-after'));
      // Waiting longer than the budget would block the caller in silence: it gets the wait instead.
      if (RETRYABLE.has(res.status) && attempt < maxRetries && (wait === null || wait <= budget)) {
        await sleep(wait ?? Math.min(backoff(attempt), budget), spec.options?.signal);
        continue;
      }
      throw ApiError.from(problem, wait === null ? undefined : Math.ceil(wait / 1000));
    }
  }

  private async send(spec: RequestSpec, url: URL, key: string | undefined): Promise<Response> {
    const token = typeof this.options.token === 'function' ? await this.options.token() : this.options.token;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      'x-company-id': this.options.companyId,
    };
    if (this.options.filialId) headers['x-filial-id'] = this.options.filialId;
    if (key) headers['Idempotency-Key'] = key;
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (spec.raw) headers['Content-Type'] = spec.raw.contentType;
    if (spec.read && spec.read !== 'json') headers.Accept = '*/*';
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    return this.fetchImpl(url, {
      method: spec.method,
      headers,
      body: spec.raw ? (spec.raw.data as RequestInit['body']) : spec.body === undefined ? undefined : JSON.stringify(spec.body),
      signal: spec.options?.signal ? AbortSignal.any([spec.options.signal, timeout]) : timeout,
    });
  }
}

async function readProblem(res: Response): Promise<ProblemDocument> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as ProblemDocument;
    if (body && typeof body === 'object' && typeof body.status === 'number') return body;
  } catch {
    /* not a problem document: described below */
  }
  return {
    type: 'about:blank',
    title: res.statusText || 'Error',
    status: res.status,
    detail: text.slice(0, 500),
    code: `HTTP_${res.status}`,
  };
}

/** Path segment of an id (hashids are URL-safe, but a caller's string may not be). */
export const seg = (value: string) => encodeURIComponent(value);

/** The filial a call addresses: the one given, else the client's. */
export function filialOf(http: HttpClient, filialId?: string): string {
  const id = filialId ?? http.filialId;
  if (!id) throw new TypeError('This call needs a filialId (an argument or the client options)');
  return id;
}
