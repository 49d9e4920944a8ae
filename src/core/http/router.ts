import { RequestHandler, Router } from 'express';
import { authenticate, authenticateOperator } from '../auth/auth.middleware';
import { idempotent } from '../idempotency/idempotency.middleware';
import { bodyParsers, csvBodyAsJson, requireContentType, xmlBodyAsJson } from './content-type';
import type { RouteDef } from './route';
import { validate } from './validate';
import { authorizeFilial } from './authorize-filial';

const WITH_BODY = new Set(['post', 'put', 'patch']);

/**
 * Mounts route definitions. The chain is always, in order: per-address limits → auth + tenant headers
 * (+ scope) → per-token rate limit → the filial authorized (x-filial-id, path :filialId) → content
 * type → body parser → validation (ids decoded) → idempotency → controller. Public routes skip the first three.
 */
export function buildRouter(routes: RouteDef[], rateLimiter: RequestHandler, addressLimiter: RequestHandler[] = []): Router {
  const router = Router();
  const groupOf = routerPerFirstSegment(router);
  for (const r of routes) {
    const chain: RequestHandler[] = [];
    if (r.operator) chain.push(...addressLimiter, authenticateOperator(), rateLimiter);
    else if (!r.public)
      chain.push(...addressLimiter, authenticate(r.scope), rateLimiter, authorizeFilial({ deferToHandler: r.filialCheck === 'handler' }));
    if (WITH_BODY.has(r.method)) {
      const format = r.bodyFormat ?? 'json';
      chain.push(requireContentType(format), ...bodyParsers(format));
      if (format === 'xml') chain.push(xmlBodyAsJson);
      if (format === 'csv') chain.push(csvBodyAsJson);
    }
    chain.push(validate(r.schema));
    // An idempotent handler runs inside the key's middleware, which commits the outcome with the work.
    chain.push(r.idempotent ? idempotent(r.handler, r.idempotent === true ? 'unit' : r.idempotent) : r.handler);
    groupOf(r.path)[r.method](r.path, ...chain);
  }
  return router;
}

/** Lower-cased: express matches paths case-insensitively. */
const firstSegment = (path: string): string => {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
};

/**
 * Express tries a request against every route in turn, so a route near the end of a long list pays a
 * path match per route before it (over a hundred for /sales-order). Routes are kept in one router per
 * literal first path segment, in their order, and a request goes straight to its segment's router:
 * routes of different literal segments never match the same path, so the answer is the same. Not
 * mounted under a path, those routers leave `req.baseUrl` and `req.route.path` as they were.
 */
function routerPerFirstSegment(root: Router): (path: string) => Router {
  const groups = new Map<string, Router>();
  root.use((req, res, next) => {
    const group = groups.get(firstSegment(req.path));
    if (group) group(req, res, next);
    else next();
  });
  return (path) => {
    const segment = firstSegment(path);
    if (!/^[\w.-]+$/.test(segment)) throw new Error(`Route ${path}: its first path segment must be literal`);
    let group = groups.get(segment);
    if (!group) groups.set(segment, (group = Router()));
    return group;
  };
}
