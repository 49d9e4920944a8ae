import { randomUUID } from 'node:crypto';
import type { RouteDef } from '../http/route';
import type { ExampleIds } from './example-ids';
import { buildOpenApi, IDEMPOTENCY_KEY_EXAMPLE, TRY_IT_OUT_KEY_PREFIX } from './openapi';

/*
 * The OpenAPI document as the server serves it (GET /api/openapi.json, Swagger UI reads it from there):
 * built with the ids of the running demo tenant when it is seeded, and with a fresh Idempotency-Key
 * example per operation in every copy served. Each build is kept per set of ids (the demo's do not move).
 */
export function servedOpenApi(routes: RouteDef[], exampleIds: () => Promise<ExampleIds | undefined>): () => Promise<string> {
  const built = new Map<string, string>();
  return async () => {
    const ids = (await exampleIds()) ?? {};
    const key = JSON.stringify(ids);
    let text = built.get(key);
    if (text === undefined) {
      text = JSON.stringify(buildOpenApi(routes, { exampleIds: ids }));
      if (built.size > 8) built.clear();
      built.set(key, text);
    }
    return text
      .split(IDEMPOTENCY_KEY_EXAMPLE)
      .reduce((out, part, i) => (i === 0 ? part : `${out}${TRY_IT_OUT_KEY_PREFIX}${randomUUID()}${part}`), '');
  };
}

/**
 * Swagger UI's request interceptor (runs in the browser): a "Try it out" whose Idempotency-Key is still
 * one of the document's examples gets a fresh one, so trying twice is two requests; a key typed by hand
 * is sent as typed.
 */
export function freshTryItOutKey(req: { headers?: Record<string, string> }) {
  const header = req.headers && req.headers['Idempotency-Key'];
  if (header && header.indexOf('try-') === 0) {
    const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
    req.headers!['Idempotency-Key'] =
      'try-' + (c && c.randomUUID ? c.randomUUID() : Date.now().toString(36) + '-' + Math.random().toString(36).slice(2));
  }
  return req;
}
