import type { NextFunction, Request, Response } from 'express';
import { DeferredWriteFailed, isDatabaseUnavailable, isDeadlock, isUniqueViolation } from '../db/db-errors';
import { filialCheckBeforeClientError } from '../http/authorize-filial';
import { logger } from '../logger';
import { AppError, ErrorKind, RateLimitedError, UnavailableError } from './app-error';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  business_rule: 422,
  rate_limited: 429,
  upstream_failure: 502,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  unavailable: 503,
  internal: 500,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const problemType = (code: string) => `urn:problem-type:${code.toLowerCase().replace(/_/g, '-')}`;

/** Turns anything thrown into an AppError: body-parser failures, driver errors, then the rest. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // The request failed as a whole: answer for the deferred statement's own error.
  if (err instanceof DeferredWriteFailed) return toAppError(err.cause);
  const e = err as { type?: string; status?: number; message?: string };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new AppError('invalid', 'MALFORMED_JSON', `Malformed JSON: ${e.message ?? ''}`.trim());
    case 'entity.too.large':
      return new AppError('too_large', 'PAYLOAD_TOO_LARGE', 'Request body exceeds the size limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'UNSUPPORTED_MEDIA_TYPE', e.message ?? 'Unsupported encoding');
    case 'request.aborted':
      return new AppError('invalid', 'REQUEST_ABORTED', 'Request aborted');
  }
  if (isUniqueViolation(err)) return new AppError('conflict', 'DUPLICATE', 'A record with the same unique key already exists');
  if (isDeadlock(err)) return new AppError('conflict', 'CONCURRENT_UPDATE', 'Concurrent update; retry the request', { retryable: true });
  // A database node died under the request: whatever it had not committed is gone; the retry (same
  // Idempotency-Key) goes to a live node.
  if (isDatabaseUnavailable(err)) return new UnavailableError('DATABASE_UNAVAILABLE', 'The database did not answer; retry the request', 1);
  return new AppError('internal', 'INTERNAL_ERROR', 'Internal server error');
}

/** The one place failures become RFC 9457 problem+json. */
export function errorMiddleware(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (req.filialUnchecked) {
    // A filial left to the handler's check (authorize-filial.ts): a refusal wins over a client error.
    void filialCheckBeforeClientError(req, STATUS[toAppError(err).kind]).then((refusal) => answer(refusal ?? err, req, res));
    return;
  }
  answer(err, req, res);
}

function answer(err: unknown, req: Request, res: Response): void {
  const appError = toAppError(err);
  const status = STATUS[appError.kind];
  if (status >= 500)
    logger.error('request failed', { err: err instanceof Error ? { message: err.message, stack: err.stack } : err, path: req.originalUrl });
  // A conflict that outlasted the unit's retries: which statement, on which error, is worth knowing.
  else if (appError.code === 'CONCURRENT_UPDATE')
    logger.warn('concurrent update not resolved by retries', { path: req.originalUrl, db: driverDetail(err) });
  if (appError instanceof RateLimitedError || appError instanceof UnavailableError)
    res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (res.headersSent) {
    res.end();
    return;
  }
  res
    .status(status)
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: problemType(appError.code),
        title: TITLES[status] ?? 'Error',
        status,
        detail: appError.message,
        instance: req.originalUrl,
        ...appError.extensions,
        code: appError.code,
        requestId: req.requestId,
      }),
    );
}

/** The driver's account of a database error (a deferred write's own cause): code, errno, message, statement. */
function driverDetail(err: unknown): Record<string, unknown> {
  const cause = (err instanceof DeferredWriteFailed ? err.cause : err) as {
    code?: string;
    errno?: number;
    sqlMessage?: string;
    message?: string;
    query?: string;
    sql?: string;
    driverError?: { code?: string; errno?: number; sqlMessage?: string; sql?: string };
  };
  const d = cause?.driverError ?? cause;
  return {
    code: d?.code,
    errno: d?.errno,
    message: d?.sqlMessage ?? cause?.message,
    sql: String(cause?.query ?? d?.sql ?? '').slice(0, 300),
    deferred: err instanceof DeferredWriteFailed ? err.label : undefined,
  };
}

export function notFoundRoute(req: Request): never {
  throw new AppError('not_found', 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`);
}
