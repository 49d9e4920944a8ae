import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, Store } from 'express-rate-limit';
import { config } from '../config';
import { RateLimitedError } from '../errors';

export interface RateLimitOptions {
  windowMs: number;
  max: number;
  store?: Store;
}

/** Per token (user + company); counters in Redis when REDIS_URL is set so replicas share them. */
export function rateLimitPerToken(options: RateLimitOptions = config.rateLimit): RequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: options.store,
    keyGenerator: (req: Request) => `${req.ctx?.companyId ?? 0}:${req.token?.sub ?? req.ip}`,
    handler: (req: Request, _res: Response, next: NextFunction) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : Math.ceil(options.windowMs / 1000);
      next(new RateLimitedError('Too many requests for this token', seconds));
    },
    validate: { keyGeneratorIpFallback: false },
  });
}
