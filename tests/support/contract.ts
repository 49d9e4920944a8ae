import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'superagent';
import type { RouteDef } from '../../src/core/http/route';
import { buildOpenApi } from '../../src/core/openapi/openapi';
import { allRoutes } from '../../src/modules';

/*
 * The API contract, proven by the suite (issue 20): every response an API test receives is checked
 * against the OpenAPI document — its status documented for the operation, its body valid, no field
 * the document does not name. Every route documents its responses, so a response of a route without
 * them fails too (CONTRACT_REQUIRE_ALL=0 relaxes that while a new route is being written, never in CI).
 */
export const CONTRACT_REQUIRE_ALL = process.env.CONTRACT_REQUIRE_ALL !== '0';

const routes = allRoutes();
export const openapi = buildOpenApi(routes) as { paths: Record<string, Record<string, any>>; components: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: openapi.components });

interface Operation {
  route: RouteDef;
  path: string;
  match: RegExp;
}

/** In mounting order, as express tries them: the first route whose pattern matches answered. */
const operations: Operation[] = routes.map((route) => ({
  route,
  path: `/api${route.path}`.replace(/:(\w+)/g, '{$1}'),
  match: new RegExp(`^/api${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`),
}));

const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: unknown): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    // Refs point at '#/components/…' of the document: resolve them against the schema registered above.
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')));
    validators.set(key, v);
  }
  return v;
}

/** The routes whose responses are not documented yet, as 'METHOD /api/path' grouped by tag. */
export function undocumentedRoutes(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of routes.filter((x) => !x.responses)) (out[r.tag] ??= []).push(`${r.method.toUpperCase()} /api${r.path}`);
  return out;
}

/** Returns why `res` breaks the contract, or null when it keeps it (or its route is not documented yet). */
export function contractViolation(method: string, url: string, res: Response): string | null {
  const pathname = new URL(url, 'http://x').pathname;
  const op = operations.find((o) => o.route.method === method.toLowerCase() && o.match.test(pathname));
  if (!op) return null; // not an API route (docs, openapi.json, metrics, unknown path)
  const where = `${method.toUpperCase()} ${op.path} → ${res.status}`;
  if (!op.route.responses) return CONTRACT_REQUIRE_ALL ? `${where}: the route documents no responses` : null;
  const documented = openapi.paths[op.path][op.route.method].responses as Record<string, any>;
  const response = documented[String(res.status)];
  if (!response)
    return `${where}: status ${res.status} is not documented (documented: ${Object.keys(documented).join(', ')}); body ${JSON.stringify(res.body).slice(0, 400)}`;
  const contentType = String(res.headers['content-type'] ?? '').split(';')[0];
  if (!response.content) return res.status === 204 || !res.text ? null : `${where}: a body was sent but none is documented`;
  const media = response.content[contentType];
  if (!media)
    return `${where}: content type ${contentType || '(none)'} is not documented (documented: ${Object.keys(response.content).join(', ')})`;
  if (contentType !== 'application/json' && contentType !== 'application/problem+json') return null;
  const validate = validatorFor(`${op.path} ${op.route.method} ${res.status} ${contentType}`, media.schema);
  if (validate(res.body)) return null;
  const e = validate.errors![0];
  const detail =
    e.keyword === 'additionalProperties'
      ? `undocumented field '${e.params.additionalProperty}'`
      : e.keyword === 'enum'
        ? `${e.message} ${JSON.stringify(e.params.allowedValues)}`
        : e.message;
  return `${where}: body${e.instancePath || ''} ${detail} (schema ${e.schemaPath}); body ${JSON.stringify(res.body).slice(0, 600)}`;
}
