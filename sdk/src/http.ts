import { ApiError, ProblemDocument } from './errors';

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
  /** Retries of a 429/503 answer (default 3). */
  maxRetries?: number;
  /** Wait when the server gives no Retry-After, doubled per attempt (default 500 ms). */
  retryBaseDelayMs?: number;
  /** Never wait longer than this for one retry (default 60 s). */
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

export type QueryParams = Record<string, string | number | boolean | undefined | null>;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  body?: unknown;
  /** Posting call: send an Idempotency-Key (the same one on every retry). */
  idempotent?: boolean;
  /** A non-JSON body (an XML document, a ZIP of XML files) sent as is with its content type. */
  raw?: { data: string | Uint8Array; contentType: string };
  /** How to read the success body: JSON (default), text (XML, server-sent events) or bytes (PDF). */
  read?: 'json' | 'text' | 'bytes';
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
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    }
    const key = spec.idempotent ? (spec.options?.idempotencyKey ?? newKey()) : undefined;
    const maxRetries = this.options.maxRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(spec, url, key);
      if (res.ok) {
        if (res.status === 204) return undefined as T;
        if (spec.read === 'bytes') return new Uint8Array(await res.arrayBuffer()) as T;
        const text = await res.text();
        if (spec.read === 'text') return text as T;
        return (text ? JSON.parse(text) : undefined) as T;
      }
      const problem = await readProblem(res);
      const wait = retryAfterMs(res.headers.get('retry-after'));
      if (RETRYABLE.has(res.status) && attempt < maxRetries) {
        const fallback = (this.options.retryBaseDelayMs ?? 500) * 2 ** attempt;
        await sleep(Math.min(wait ?? fallback, this.options.maxRetryDelayMs ?? 60_000), spec.options?.signal);
        continue;
      }
      throw new ApiError(problem, wait === null ? undefined : Math.ceil(wait / 1000));
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
