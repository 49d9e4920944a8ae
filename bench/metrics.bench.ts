/*
 * The metrics' own cost per request (issue 21): CPU time (process.cpuUsage) of the per-route
 * request middleware over N synthetic requests (route template, status, a latency histogram
 * observation), minus the same loop with a middleware that only listens for the response's end;
 * and the CPU of rendering a scrape of the registry holding the series of every route. No server,
 * no database: the middleware alone, in this process.
 *
 *   npm run bench -- metrics        env: N (100000)
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { httpMetrics, routeMount } from '../src/core/metrics/http-metrics';
import { registry } from '../src/core/metrics/registry';
import { allRoutes } from '../src/modules';
import { machine, reportFile } from './support';

const N = Number(process.env.N ?? 100_000);
const routes = allRoutes().map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
const STATUSES = [200, 200, 200, 201, 400, 404, 409];

function fakeRequest(i: number): { req: Request; res: Response } {
  const r = routes[i % routes.length];
  const req = { method: r.method, baseUrl: '/api', route: { path: r.path } } as unknown as Request;
  const res = Object.assign(new EventEmitter(), {
    statusCode: STATUSES[i % STATUSES.length],
    writableFinished: true,
  }) as unknown as Response;
  return { req, res };
}

const next: NextFunction = () => undefined;
const listenOnly: RequestHandler = (_req, res, n) => {
  const started = process.hrtime.bigint();
  res.once('close', () => void (process.hrtime.bigint() - started));
  n();
};

/** CPU µs per call of `handler` (routeMount, the handler, then the response's end). */
function cpuPerCall(handler: RequestHandler): number {
  const requests = Array.from({ length: N }, (_v, i) => fakeRequest(i));
  const before = process.cpuUsage();
  for (const { req, res } of requests) {
    routeMount(req, res, next);
    handler(req, res, next);
    res.emit('close');
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / N;
}

(async () => {
  // Warm-up of both loops (JIT, the label children of every route), then the measured runs.
  cpuPerCall(httpMetrics);
  cpuPerCall(listenOnly);
  const runs = Array.from({ length: 5 }, () => ({ metrics: cpuPerCall(httpMetrics), bare: cpuPerCall(listenOnly) }));
  const perCall = runs.map((r) => r.metrics - r.bare).sort((a, b) => a - b);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  const scrapeBefore = process.cpuUsage();
  const SCRAPES = 50;
  let bytes = 0;
  for (let i = 0; i < SCRAPES; i++) bytes = (await registry.metrics()).length;
  const scrapeUsed = process.cpuUsage(scrapeBefore);
  const series = (await registry.getMetricsAsJSON()).reduce((n, m) => n + (m as unknown as { values: unknown[] }).values.length, 0);

  const text = [
    `## Metrics: their own cost (issue 21) — ${machine()}`,
    '',
    `${N.toLocaleString('en')} synthetic requests over the ${routes.length} routes and ${STATUSES.length} statuses, 5 runs after a warm-up (CPU time of this process, process.cpuUsage):`,
    '',
    '| figure | value |',
    '|---|---|',
    `| per-route middleware: count + latency histogram, CPU per request (median of 5; min–max) | ${med(perCall).toFixed(2)} µs (${perCall[0].toFixed(2)}–${perCall[perCall.length - 1].toFixed(2)}) |`,
    `| the loop with a middleware that only listens for the end (subtracted) | ${med(runs.map((r) => r.bare)).toFixed(2)} µs |`,
    `| rendering one scrape of the registry (${series.toLocaleString('en')} samples, ${Math.round(bytes / 1024)} KB; no database collectors) | ${((scrapeUsed.user + scrapeUsed.system) / SCRAPES / 1000).toFixed(1)} ms CPU |`,
  ].join('\n');
  console.log(text);
  fs.writeFileSync(reportFile('metrics'), `${text}\n`);
})().then(
  // Exit when done: pools of the target commit (sequence, batching) would keep the process alive.
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
