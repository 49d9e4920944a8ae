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

/**
 * Counters of one limiter kept in this process: express-rate-limit's MemoryStore, counted
 * synchronously. A key's window starts at its first hit and lasts windowMs; when it has passed, the
 * next hit starts a new one at zero. Keys not hit for a whole window are dropped (two generations of
 * maps, rotated every windowMs, as MemoryStore does).
 */
class LocalWindows {
  private previous = new Map<string, { hits: number; resetAt: number }>();
  private current = new Map<string, { hits: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {
    const rotation = setInterval(() => {
      this.previous = this.current;
      this.current = new Map();
    }, windowMs);
    rotation.unref();
  }

  private client(key: string, now: number): { hits: number; resetAt: number } {
    let client = this.current.get(key);
    if (client) return client;
    client = this.previous.get(key);
    if (client) this.previous.delete(key);
    else client = { hits: 0, resetAt: now + this.windowMs };
    this.current.set(key, client);
    return client;
  }

  /** Counts a hit; answers the key's hits in its window and when that window ends. */
  hit(key: string, now: number): { hits: number; resetAt: number } {
    const client = this.client(key, now);
    if (client.resetAt <= now) {
      client.hits = 0;
      client.resetAt = now + this.windowMs;
    }
    client.hits++;
    return client;
  }

  /** Takes back a hit counted in a window that has not ended yet. */
  unhit(key: string, resetAt: number): void {
    if (Date.now() >= resetAt) return;
    const client = this.client(key, Date.now());
    if (client.hits > 0) client.hits--;
  }
}

const secondsUntil = (at: number, now: number): number => Math.max(0, Math.ceil((at - now) / 1000));
const tokenKey = (req: Request) => `${req.ctx?.companyId ?? 0}:${req.token?.sub ?? req.ip}`;

/**
 * Per token (user + company); counters in Redis when REDIS_URL is set so replicas share them. Without
 * a store the counters live in this process and are counted in line (no promise per request), with
 * the same windows, headers (IETF draft 7: RateLimit-Policy, RateLimit) and answers.
 */
export function rateLimitPerToken(options: RateLimitOptions = config.rateLimit): RequestHandler {
  if (!options.store) {
    const windows = new LocalWindows(options.windowMs);
    const limit = options.max;
    const policy = `${limit};w=${Math.ceil(options.windowMs / 1000)}`;
    return (req: Request, res: Response, next: NextFunction) => {
      const now = Date.now();
      const { hits, resetAt } = windows.hit(tokenKey(req), now);
      const reset = secondsUntil(resetAt, now);
      if (!res.headersSent) {
        res.setHeader('RateLimit-Policy', policy);
        res.setHeader('RateLimit', `limit=${limit}, remaining=${Math.max(limit - hits, 0)}, reset=${reset}`);
      }
      if (hits <= limit) return next();
      if (!res.headersSent) res.setHeader('Retry-After', String(reset));
      next(new RateLimitedError('Too many requests for this token', Math.max(1, reset)));
    };
  }
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: options.store,
    keyGenerator: tokenKey,
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
  if (!options.stores) {
    // In this process: both counters in one synchronous step (see LocalWindows).
    const requests = new LocalWindows(options.windowMs);
    const failures = new LocalWindows(options.windowMs);
    return [
      (req: Request, res: Response, next: NextFunction) => {
        const key = keyGenerator(req);
        const now = Date.now();
        const all = requests.hit(key, now);
        if (all.hits > options.max) {
          return next(new RateLimitedError('Too many requests from this address', Math.max(1, secondsUntil(all.resetAt, now)), 'TOO_MANY_REQUESTS_FROM_ADDRESS'));
        }
        // Every request counts against the failed-authentication budget until it answers; one that
        // did not answer 401 is taken back then, so only failed authentications stay counted.
        const failed = failures.hit(key, now);
        const resetAt = failed.resetAt;
        res.once('finish', () => {
          if (res.statusCode !== 401) failures.unhit(key, resetAt);
        });
        if (failed.hits > options.authFailuresMax) {
          return next(new RateLimitedError('Too many failed authentications from this address', Math.max(1, secondsUntil(resetAt, now)), 'TOO_MANY_AUTH_FAILURES'));
        }
        next();
      },
    ];
  }
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
