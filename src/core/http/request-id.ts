import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { config } from '../config';
import { encodeOptionalId } from '../hashids';
import { logger } from '../logger';
import { routeLabel } from '../metrics/http-metrics';
import { requestScope } from '../request-context';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Request id (accepted from x-request-id or generated, echoed back), API version, access log. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  req.requestId = incoming && ACCEPTED_ID.test(incoming) ? incoming : crypto.randomUUID();
  res.setHeader('x-request-id', req.requestId);
  res.setHeader('API-Version', config.version);
  const scope = { requestId: req.requestId } as { requestId: string; companyId?: number; actor?: string };
  // One access-log line per request at the default level (info); with LOG_LEVEL warn or error, no listener, no clock.
  if (logger.isLevelEnabled('info')) logWhenFinished(req, res);
  requestScope.run(scope, () => next());
}

/**
 * The access log: one JSON line per request when its answer is sent (or the client left: status
 * `aborted`), with the route template (never the raw URL: no ids, no query strings), the status, the
 * duration and the request id, and the tenant as hashids — the same ids the API shows, never the
 * internal ones.
 */
export function accessLogEntry(req: Request, res: Response, ms: number): Record<string, unknown> {
  return {
    requestId: req.requestId,
    method: req.method,
    route: routeLabel(req),
    status: res.writableFinished ? res.statusCode : 'aborted',
    durationMs: Number(ms.toFixed(1)),
    company: encodeOptionalId('company', req.ctx?.companyId),
    filial: encodeOptionalId('filial', req.ctx?.filialId),
  };
}

function logWhenFinished(req: Request, res: Response): void {
  const started = process.hrtime.bigint();
  res.once('close', () => {
    logger.info('request', accessLogEntry(req, res, Number(process.hrtime.bigint() - started) / 1e6));
  });
}
