import crypto from 'node:crypto';
import type { Server } from 'node:http';
import express, { Express, RequestHandler } from 'express';
import { UnauthorizedError } from '../errors/app-error';
import { errorMiddleware, notFoundRoute } from '../errors/error-middleware';
import { requestContext } from '../http/request-id';
import { registerPoolMetrics } from './db-pool';
import { httpMetrics } from './http-metrics';
import { enableProcessMetrics, registry, scrape } from './registry';

export { registerScrapeCollector, registry } from './registry';
export { routeMount } from './http-metrics';

export interface MetricsOptions {
  /** Bearer token of GET /metrics on the API port; unset → not served there. */
  token?: string;
  /** A listener of its own serving only GET /metrics. */
  port?: number;
  host?: string;
}

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/** GET /metrics; with a token, only for `Authorization: Bearer <token>` (compared in constant time). */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, res) => {
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(req.header('authorization') ?? '')?.[1];
      if (!given || !crypto.timingSafeEqual(digest(given), expected))
        throw new UnauthorizedError('Missing or invalid metrics token', 'INVALID_METRICS_TOKEN');
    }
    const body = await scrape();
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  };
}

/**
 * Turns metrics on for an app when a token or a port is configured: process and pool metrics, the
 * scrape-time collectors (`registerCollectors`, once per process), per-route request metrics for
 * everything mounted after this call, and GET /metrics on the app itself when a token is set.
 * Answers whether metrics are on; when off, requests pay nothing for them.
 */
export function installMetrics(app: Express, options: MetricsOptions, registerCollectors: () => void): boolean {
  if (!options.token && !options.port) return false;
  enableProcessMetrics();
  registerPoolMetrics();
  registerCollectors();
  // Scrapes are not counted as API requests.
  if (options.token) app.get('/metrics', metricsEndpoint(options.token));
  app.use(httpMetrics);
  return true;
}

/** METRICS_PORT: GET /metrics alone on its own listener (meant for an internal network), token checked when set. */
export async function startMetricsServer(options: MetricsOptions & { port: number }): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext);
  app.get('/metrics', metricsEndpoint(options.token));
  app.use(notFoundRoute as RequestHandler);
  app.use(errorMiddleware);
  const server = app.listen(options.port, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  return server;
}
