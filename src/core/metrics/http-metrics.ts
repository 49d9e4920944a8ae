import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Counter, Histogram } from 'prom-client';
import { registry } from './registry';

/*
 * Per-route request counts and latencies. Labels are the route template (`/api/sales-order/:id`),
 * never the raw URL, so ids and tenants never become label values and the series stay bounded:
 * a request no route matched counts as `unmatched`.
 */
const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status (aborted: the client left first)',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});

const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the app to the end of its response, by method and route template',
  labelNames: ['method', 'route'],
  buckets: [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

type Observer = { count: { inc: () => void }; observe: (seconds: number) => void };

// prom-client hashes the label object on every call; the children are kept per label set instead.
const observers = new Map<string, Observer>();

function observerFor(method: string, route: string, status: string): Observer {
  const key = `${method} ${route} ${status}`;
  let o = observers.get(key);
  if (!o) {
    const h = duration.labels(method, route);
    o = { count: requests.labels(method, route, status), observe: (s) => h.observe(s) };
    observers.set(key, o);
  }
  return o;
}

const MOUNT = Symbol('metricsRouteMount');
type WithMount = Request & { [MOUNT]?: string };

/**
 * Mounted with a router (`app.use('/api', routeMount, router)`): remembers the mount path, which
 * express takes back from `req.baseUrl` when an error leaves the router.
 */
export const routeMount: RequestHandler = (req, _res, next) => {
  (req as WithMount)[MOUNT] = req.baseUrl;
  next();
};

/** The route template of an answered request; `unmatched` when no route took it. */
export function routeLabel(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${(req as WithMount)[MOUNT] ?? ''}${path}`;
  return req.baseUrl || 'unmatched';
}

export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const status = res.writableFinished ? String(res.statusCode) : 'aborted';
    const o = observerFor(req.method, routeLabel(req), status);
    o.count.inc();
    o.observe(Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
}
