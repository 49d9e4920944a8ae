import { RequestHandler, Router } from 'express';
import { authenticate } from '../auth/auth.middleware';
import { idempotent } from '../idempotency/idempotency.middleware';
import { bodyParsers, requireContentType, xmlBodyAsJson } from './content-type';
import type { RouteDef } from './route';
import { validate } from './validate';

const WITH_BODY = new Set(['post', 'put', 'patch']);

/**
 * Mounts route definitions. The chain is always, in order: per-address limits → auth + tenant headers
 * (+ scope) → per-token rate limit → content type → body parser → validation (ids decoded, filial
 * checked) → idempotency → controller. Public routes skip the first three.
 */
export function buildRouter(routes: RouteDef[], rateLimiter: RequestHandler, addressLimiter: RequestHandler[] = []): Router {
  const router = Router();
  for (const r of routes) {
    const chain: RequestHandler[] = [];
    if (!r.public) chain.push(...addressLimiter, authenticate(r.scope), rateLimiter);
    if (WITH_BODY.has(r.method)) {
      const format = r.bodyFormat ?? 'json';
      chain.push(requireContentType(format), ...bodyParsers(format));
      if (format === 'xml') chain.push(xmlBodyAsJson);
    }
    chain.push(validate(r.schema));
    // An idempotent handler runs inside the key's middleware, which commits the outcome with the work.
    chain.push(r.idempotent ? idempotent(r.handler, r.idempotent === true ? 'unit' : r.idempotent) : r.handler);
    router[r.method](r.path, ...chain);
  }
  return router;
}
