/*
 * One error hierarchy for the whole service. Errors know nothing of HTTP: each has a `kind`, and the
 * error middleware maps kinds to statuses in one table. `code` is the stable UPPER_SNAKE machine code.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'business_rule'
  | 'rate_limited'
  | 'upstream_failure'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'unavailable'
  | 'internal';

export interface FieldError {
  path: string;
  message: string;
}

/** Kinds whose errors keep a stack trace: the ones logged (5xx). A client's mistake is answered, never logged. */
const TRACED = new Set<ErrorKind>(['internal', 'upstream_failure', 'upstream_unavailable', 'upstream_timeout']);

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  /** Extra members of the problem document (e.g. `currentStatus`, `problems`, `cStat`). */
  readonly extensions: Record<string, unknown>;

  constructor(kind: ErrorKind, code: string, message: string, extensions: Record<string, unknown> = {}) {
    // Capturing a stack costs more than the rest of a 4xx answer; nothing reads it for those.
    const limit = Error.stackTraceLimit;
    if (!TRACED.has(kind)) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.kind = kind;
    this.code = code;
    this.extensions = extensions;
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, errors: FieldError[] = [], code = 'VALIDATION_ERROR') {
    super('invalid', code, message, { errors });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid bearer token', code = 'UNAUTHORIZED') {
    super('unauthorized', code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'FORBIDDEN') {
    super('forbidden', code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, code = `${resource.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_NOT_FOUND`) {
    super('not_found', code, `${resource} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string, extensions: Record<string, unknown> = {}) {
    super('conflict', code, message, extensions);
  }
}

export class BusinessRuleError extends AppError {
  constructor(code: string, message: string, extensions: Record<string, unknown> = {}) {
    super('business_rule', code, message, extensions);
  }
}

export class RateLimitedError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
    code = 'TOO_MANY_REQUESTS',
    extensions: Record<string, unknown> = {},
  ) {
    super('rate_limited', code, message, extensions);
  }
}

export class UpstreamError extends AppError {
  constructor(
    kind: 'upstream_failure' | 'upstream_unavailable' | 'upstream_timeout',
    code: string,
    message: string,
    extensions: Record<string, unknown> = {},
  ) {
    super(kind, code, message, extensions);
  }
}

/** The service cannot answer now (its database is unreachable); the client retries after a pause. */
export class UnavailableError extends AppError {
  constructor(
    code: string,
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super('unavailable', code, message, { retryable: true });
  }
}

/** Wrong status for the requested transition, with the current status named. */
export class StateConflictError extends ConflictError {
  constructor(resource: string, currentStatus: string, action: string, code = 'INVALID_STATUS_TRANSITION') {
    super(code, `${resource} is ${currentStatus}; cannot ${action}`, { currentStatus });
  }
}

export class StaleVersionError extends ConflictError {
  constructor(resource: string, currentVersion: number) {
    super('STALE_VERSION', `${resource} was changed by someone else (current version ${currentVersion})`, { currentVersion });
  }
}
