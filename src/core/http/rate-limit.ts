import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, Options, rateLimit, Store } from 'express-rate-limit';
import { verifyToken } from '../auth/jwt';
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
        next(
          new RateLimitedError('Too many requests from this address', retryAfter(req, options.windowMs), 'TOO_MANY_REQUESTS_FROM_ADDRESS'),
        );
      },
    }),
    authFailureLimit(options, keyGenerator),
  ];
}

/**
 * The failed-authentication budget. A failure is counted when a 401 is sent, and only then: a request
 * in progress, a long poll or an event stream the client drops, a 2xx/4xx other than 401 never touch
 * it (counting on arrival and giving back on a non-401 answer locked out an address whose valid
 * requests were merely concurrent, or whose streams were closed by the client). An address that has
 * reached the budget gets 429 until its window ends — except for a request whose bearer token verifies:
 * a till network behind one NAT shares its address with whatever failed there, and a valid token is
 * never refused by this budget (verification is cached per token, jwt.ts; only tokens that do not
 * verify are refused here).
 */
function authFailureLimit(options: AddressRateLimitOptions, keyOf: (req: Request) => string): RequestHandler {
  const store: Store = options.stores?.authFailures ?? new MemoryStore();
  void store.init?.({ windowMs: options.windowMs } as Options);
  const read = store.get?.bind(store);
  if (!read) throw new Error('The failed-authentication store must answer get()');
  return (req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(req);
    res.on('finish', () => {
      if (res.statusCode === 401) Promise.resolve(store.increment(key)).catch(() => undefined);
    });
    Promise.resolve(read(key)).then((info) => {
      if (info && info.totalHits >= options.authFailuresMax && !hasValidToken(req)) {
        const wait = info.resetTime
          ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
          : Math.ceil(options.windowMs / 1000);
        next(new RateLimitedError('Too many failed authentications from this address', wait, 'TOO_MANY_AUTH_FAILURES'));
      } else next();
    }, next);
  };
}

const BEARER = /^Bearer\s+(\S+)$/i;

function hasValidToken(req: Request): boolean {
  const token = BEARER.exec(req.header('authorization') ?? '')?.[1];
  if (!token) return false;
  try {
    verifyToken(token);
    return true;
  } catch {
    return false;
  }
}
