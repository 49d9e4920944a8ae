import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, Store } from 'express-rate-limit';
import { config } from '../config';
import { RateLimitedError } from '../errors';

export interface RateLimitOptions {
  windowMs: number;
  max: number;
  store?: Store;
}

const retryAfter = (req: Request, windowMs: number): number => {
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  return reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : Math.ceil(windowMs / 1000);
};

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
      next(new RateLimitedError('Too many requests for this token', retryAfter(req, options.windowMs)));
    },
    validate: { keyGeneratorIpFallback: false },
  });
}

export interface AddressRateLimitOptions {
  windowMs: number;
  /** Requests per address and window, whatever their token. */
  max: number;
  /** Failed authentications (401) per address and window; beyond it the address gets 429 until the window ends. */
  authFailuresMax: number;
  /** Two distinct stores (Redis when REDIS_URL is set): a store serves one limiter. */
  stores?: { requests: Store; authFailures: Store };
}

/**
 * In front of authentication, per client address (IPv6 grouped by /56): a ceiling on all requests and
 * a budget of failed authentications, so invalid or expired tokens are throttled before any token
 * work — the per-token limit only sees requests that authenticated. Numbers: docs/decisions.md.
 */
export function rateLimitPerAddress(options: AddressRateLimitOptions = config.rateLimit.perAddress): RequestHandler[] {
  const keyGenerator = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
  const common = { windowMs: options.windowMs, standardHeaders: false as const, legacyHeaders: false, keyGenerator };
  return [
    rateLimit({
      ...common,
      limit: options.max,
      store: options.stores?.requests,
      handler: (req: Request, _res: Response, next: NextFunction) => {
        next(new RateLimitedError('Too many requests from this address', retryAfter(req, options.windowMs), 'TOO_MANY_REQUESTS_FROM_ADDRESS'));
      },
    }),
    rateLimit({
      ...common,
      limit: options.authFailuresMax,
      store: options.stores?.authFailures,
      // Only failed authentications count.
      skipSuccessfulRequests: true,
      requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== 401,
      handler: (req: Request, _res: Response, next: NextFunction) => {
        next(new RateLimitedError('Too many failed authentications from this address', retryAfter(req, options.windowMs), 'TOO_MANY_AUTH_FAILURES'));
      },
    }),
  ];
}
