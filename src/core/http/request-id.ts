import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { config } from '../config';
import { logger } from '../logger';
import { requestScope } from '../request-context';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Request id (accepted from x-request-id or generated, echoed back), API version, access log. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  req.requestId = incoming && ACCEPTED_ID.test(incoming) ? incoming : crypto.randomUUID();
  res.setHeader('x-request-id', req.requestId);
  res.setHeader('API-Version', config.version);
  const scope = { requestId: req.requestId } as { requestId: string; companyId?: number; actor?: string };
  // The access log is at level http, below the default info: when it is off, no listener, no clock.
  if (logger.isLevelEnabled('http')) logWhenFinished(req, res, scope);
  requestScope.run(scope, () => next());
}

function logWhenFinished(req: Request, res: Response, scope: { companyId?: number }): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    logger.http('request', {
      requestId: req.requestId,
      method: req.method,
      route: req.route ? `${req.baseUrl}${req.route.path}` : req.originalUrl.split('?')[0],
      status: res.statusCode,
      ms: Number((Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)),
      companyId: scope.companyId,
    });
  });
}
