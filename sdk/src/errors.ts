import type { ProblemCode, ProblemCodes } from './problems';

/** RFC 9457 problem document as the service sends it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  /** Stable UPPER_SNAKE machine code (e.g. INSUFFICIENT_STOCK); the document's codes are `ProblemCode`. */
  code: string;
  /** Validation failures: one per field path. */
  errors?: { path: string; message: string }[];
  requestId?: string;
  /** Extensions such as `currentStatus`, `currentVersion`, `problems`, `shortages`. */
  [extension: string]: unknown;
}

/**
 * A non-2xx answer of the API, with its problem document. Thrown as the subclass of its status
 * (NotFoundError, ConflictError, BusinessRuleError…); `code` is one of the codes the API's document
 * lists (`ProblemCode`, generated), so a `switch (err.code)` or `err.is('INSUFFICIENT_STOCK')` is typed.
 */
export class ApiError<C extends string = ProblemCode | (string & {})> extends Error {
  readonly status: number;
  readonly code: C;
  readonly requestId?: string;
  /** Seconds the server asked to wait (429/503), when it said. */
  readonly retryAfter?: number;

  constructor(
    readonly problem: ProblemDocument,
    retryAfterSeconds?: number,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.name = new.target.name;
    this.status = problem.status;
    this.code = problem.code as C;
    this.requestId = problem.requestId;
    this.retryAfter = retryAfterSeconds;
  }

  /** @deprecated the same as `retryAfter`. */
  get retryAfterSeconds(): number | undefined {
    return this.retryAfter;
  }

  /** Field errors of a validation failure (empty otherwise). */
  get errors(): { path: string; message: string }[] {
    return this.problem.errors ?? [];
  }

  /** Narrows to one problem code (and the statuses the document gives it). */
  is<K extends ProblemCode>(code: K): this is ApiError<K> & { status: ProblemCodes[K] } {
    return (this.code as string) === code;
  }

  /** The subclass of the answer's status. */
  static from(problem: ProblemDocument, retryAfterSeconds?: number): ApiError {
    const Class = BY_STATUS[problem.status] ?? (problem.status >= 500 ? InternalServerError : ApiError);
    return new Class(problem, retryAfterSeconds);
  }
}

/** 400: invalid input (VALIDATION_ERROR with `errors`, INVALID_ID, UNKNOWN_FIELDS, MALFORMED_JSON…). */
export class BadRequestError extends ApiError {}
/** 401: missing, invalid or expired token. */
export class AuthenticationError extends ApiError {}
/** 403: the token does not grant the company, filial or scope. */
export class PermissionDeniedError extends ApiError {}
/** 404: not found in the tenant. */
export class NotFoundError extends ApiError {}
/** 409: conflict with the current state (STALE_VERSION, INVALID_STATUS_TRANSITION, IDEMPOTENCY_KEY_REUSED…). */
export class ConflictError extends ApiError {}
/** 413: body too large. */
export class PayloadTooLargeError extends ApiError {}
/** 415: unsupported content type. */
export class UnsupportedMediaTypeError extends ApiError {}
/** 422: a business rule (INSUFFICIENT_STOCK, PAYMENT_EXCEEDS_BALANCE…). */
export class BusinessRuleError extends ApiError {}
/** 429: too many requests; `retryAfter` says how long to wait. */
export class RateLimitError extends ApiError {}
/** 500 and any 5xx not listed below. */
export class InternalServerError extends ApiError {}
/** 502 / 504: the tax authority failed or did not answer in time. */
export class UpstreamError extends ApiError {}
/** 503: unavailable (a database node, the tax authority's own pause); retry after `retryAfter`. */
export class ServiceUnavailableError extends ApiError {}

const BY_STATUS: Record<number, new (problem: ProblemDocument, retryAfterSeconds?: number) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: BusinessRuleError,
  429: RateLimitError,
  500: InternalServerError,
  502: UpstreamError,
  503: ServiceUnavailableError,
  504: UpstreamError,
};

/**
 * Every problem the document lists, as a union discriminated by `code`: `catch (e) { if (e instanceof
 * ApiError) { const p = e as TypedApiError; switch (p.code) { case 'INSUFFICIENT_STOCK': … } } }`.
 */
export type TypedApiError = { [K in ProblemCode]: ApiError<K> & { status: ProblemCodes[K] } }[ProblemCode];

/** No answer: the connection was reset or refused, or the per-request timeout passed (after the retries the call allowed). */
export class ApiConnectionError extends Error {
  constructor(
    readonly kind: 'network' | 'timeout',
    readonly call: string,
    override readonly cause: unknown,
    readonly attempts: number,
  ) {
    super(`${call}: ${kind === 'timeout' ? 'timed out' : `connection failed (${(cause as { cause?: { code?: string } })?.cause?.code ?? (cause as { code?: string })?.code ?? (cause as Error)?.message})`} after ${attempts} attempt(s)`);
    this.name = 'ApiConnectionError';
  }
}
