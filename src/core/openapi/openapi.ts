import { config } from '../config';
import type { ProblemStatus, RouteDef } from '../http/route';
import { ExampleIds, withExampleIds } from './example-ids';
import { exampleOf } from './examples';
import { ComponentRegistry, joiToJsonSchema } from './joi-to-json-schema';

/**
 * The Idempotency-Key example as built; the server gives every operation of each document it serves a
 * fresh key in its place (app.ts), and Swagger UI a fresh one at every "Try it out" (TRY_IT_OUT_KEY_PREFIX),
 * so a second try is a second request, never 409 IDEMPOTENCY_KEY_REUSED.
 */
export const IDEMPOTENCY_KEY_EXAMPLE = 'try-00000000-0000-4000-8000-000000000000';
export const TRY_IT_OUT_KEY_PREFIX = 'try-';

/**
 * Tags in the order of the business flow, as Swagger UI lists them: set up, buy, receive and book the
 * invoices, pay, sell, follow, operate. A tag not listed here comes after these, in route order.
 */
export const TAG_ORDER: { name: string; description: string }[] = [
  { name: 'Tenancy', description: 'The token: user, company and granted filiais.' },
  { name: 'Settings', description: 'Company purchase tolerances and per-filial fiscal settings.' },
  { name: 'Catalog', description: 'Products, customers, sellers, suppliers, payment methods and stock balances.' },
  { name: 'Operators', description: 'Companies and filiais created by operators (a token of no company with the operator scope).' },
  {
    name: 'First note',
    description: 'What a filial needs before its first NF-e/NFC-e: readiness check, authority settings, the local simulator.',
  },
  { name: 'Purchase orders', description: 'Orders to suppliers, approval and receiving against entry documents.' },
  { name: 'Entry documents', description: 'Inbound purchase invoices: drafts, review, confirmation (stock and payables), cancellation.' },
  { name: 'NF-e', description: 'Inbound NF-e: preview, staging, import, the inbound inbox.' },
  { name: 'NF-e at volume', description: 'Batch uploads, manifestation deadlines, DANFE.' },
  { name: 'NF-e tax authority', description: 'SEFAZ: DF-e sync and schedule, manifestation, key queries, certificate.' },
  { name: 'CT-e', description: 'Freight documents apportioned into landed cost.' },
  { name: 'Product map', description: "Supplier codes mapped to the company's products." },
  { name: 'Accounts payable', description: 'Accounts payable (contas a pagar) and their payments.' },
  { name: 'Sales orders', description: 'Quotes and orders: create, edit, fulfil, group, cancel.' },
  { name: 'Quick sale', description: 'Counter sale in one call: configuration and validation.' },
  { name: 'Returns', description: 'Customer returns: restock and refund.' },
  { name: 'Events', description: 'Domain events (poll or server-sent) and webhooks.' },
  { name: 'System', description: 'Liveness and readiness.' },
];

/** Codes every route of a kind can give, whatever its own logic (see core/auth, core/http, core/idempotency). */
function commonErrors(r: RouteDef): Partial<Record<ProblemStatus, string[]>> {
  const e: Partial<Record<ProblemStatus, string[]>> = {};
  const add = (status: ProblemStatus, ...codes: string[]) => (e[status] = [...(e[status] ?? []), ...codes]);
  if (r.operator) {
    add(401, 'MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'UNAUTHORIZED');
    add(403, 'OPERATOR_TOKEN_REQUIRED');
    add(429, 'TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS_FROM_ADDRESS', 'TOO_MANY_AUTH_FAILURES');
  } else if (!r.public) {
    add(400, 'MISSING_TENANT_HEADER', 'INVALID_ID');
    add(401, 'MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'UNAUTHORIZED');
    add(403, 'COMPANY_NOT_GRANTED', 'FILIAL_NOT_GRANTED', ...(r.scope ? ['INSUFFICIENT_SCOPE'] : []));
    add(429, 'TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS_FROM_ADDRESS', 'TOO_MANY_AUTH_FAILURES');
  }
  // Validation runs on every route: without a schema any query field is unknown.
  add(400, 'UNKNOWN_FIELDS');
  if (r.schema) add(400, 'VALIDATION_ERROR', 'INVALID_ID');
  if (r.schema?.query?.describe().keys?.cursor) add(400, 'INVALID_CURSOR');
  if (r.method === 'post' || r.method === 'put' || r.method === 'patch') {
    add(400, 'MALFORMED_JSON', 'VALIDATION_ERROR');
    add(413, 'PAYLOAD_TOO_LARGE');
    add(415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (r.idempotent) add(409, 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS');
  if (r.method !== 'get') add(409, 'CONCURRENT_UPDATE');
  add(500, 'INTERNAL_ERROR');
  return e;
}

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing, invalid or expired token',
  403: 'The token does not grant this',
  404: 'Not found in the tenant',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Business rule',
  429: 'Too many requests (see Retry-After)',
  500: 'Internal error',
  502: 'Tax authority failure',
  503: 'Unavailable',
  504: 'Tax authority timeout',
};

/** The documented responses of a route: success and problem documents by status. */
function responsesOf(r: RouteDef, components: ComponentRegistry): Record<string, unknown> {
  const status = String(r.status ?? 200);
  const responses: Record<string, unknown> = {};
  const body = r.responses?.body;
  responses[status] = {
    description: r.responseDescription ?? (status === '204' ? 'No content' : 'Success'),
    ...(body
      ? {
          content: {
            [r.responses?.contentType ?? 'application/json']: { schema: joiToJsonSchema(body, components) },
            ...Object.fromEntries(
              Object.entries(r.responses?.alternateContent ?? {}).map(([type, schema]) => [
                type,
                { schema: joiToJsonSchema(schema, components) },
              ]),
            ),
          },
        }
      : {}),
  };
  if (r.responses?.alsoStatus)
    responses[String(r.responses.alsoStatus)] = { ...(responses[status] as object), description: 'Success (see the summary)' };
  if (!r.responses) {
    responses.default = {
      description: 'Problem details (RFC 9457)',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    return responses;
  }
  const errors = commonErrors(r);
  for (const [s, codes] of Object.entries(r.responses.errors ?? {}))
    errors[Number(s) as ProblemStatus] = [...(errors[Number(s) as ProblemStatus] ?? []), ...(codes ?? [])];
  for (const s of Object.keys(errors)
    .map(Number)
    .sort((a, b) => a - b)) {
    const codes = [...new Set(errors[s as ProblemStatus])].sort();
    responses[String(s)] = {
      description: `${TITLES[s] ?? 'Problem'}: ${codes.join(', ')}`,
      content: {
        'application/problem+json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { status: { const: s }, code: { enum: codes } } }] },
          example: {
            type: `about:blank`,
            title: TITLES[s],
            status: s,
            detail: TITLES[s],
            instance: `/api${r.path}`,
            code: codes[0],
            requestId: '5f1c9e0a-7a43-4c1e-9b7e-2f4d8c6a1b30',
          },
        },
      },
    };
  }
  return responses;
}

/**
 * OpenAPI 3.1 document built from the registered routes and their joi schemas; ids in its examples are
 * `exampleIds`' where given (the running demo tenant's, core/openapi/example-ids.ts).
 */
export function buildOpenApi(routes: RouteDef[], options: { exampleIds?: ExampleIds } = {}): Record<string, unknown> {
  return withExampleIds(options.exampleIds ?? {}, () => build(routes));
}

function build(routes: RouteDef[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: ComponentRegistry = {};
  for (const r of routes) {
    const path = `/api${r.path}`.replace(/:(\w+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const where of ['params', 'query'] as const) {
      const s = r.schema?.[where];
      if (!s) continue;
      const js = joiToJsonSchema(s) as { properties?: Record<string, any>; required?: string[] };
      for (const [name, schema] of Object.entries(js.properties ?? {})) {
        parameters.push({
          name,
          in: where === 'params' ? 'path' : 'query',
          required: where === 'params' || (js.required ?? []).includes(name),
          schema,
          ...(schema.description ? { description: schema.description } : {}),
        });
      }
    }
    // The tenant headers are security schemes (Authorize sets them once); only Idempotency-Key is a parameter.
    if (!r.public && r.idempotent)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 120 },
        example: IDEMPOTENCY_KEY_EXAMPLE,
        description:
          'any unique string (a UUID); the same key with the same request replays its answer. Swagger UI sends a fresh one with every try',
      });
    const bodyContent: Record<string, unknown> = {};
    if (r.bodyFormat === 'upload') {
      bodyContent['application/zip'] = { schema: { type: 'string', contentMediaType: 'application/zip' } };
      bodyContent['multipart/form-data'] = {
        schema: {
          type: 'object',
          properties: { files: { type: 'array', items: { type: 'string', contentMediaType: 'application/xml' } } },
        },
      };
    }
    if (r.schema?.body) {
      const example = r.schema.example ?? exampleOf(r.schema.body);
      bodyContent['application/json'] = { schema: joiToJsonSchema(r.schema.body), ...(example !== undefined ? { example } : {}) };
      if (r.bodyFormat === 'xml') {
        bodyContent['application/xml'] = { schema: { type: 'string' } };
        bodyContent['text/xml'] = { schema: { type: 'string' } };
      }
      if (r.bodyFormat === 'csv') bodyContent['text/csv'] = { schema: { type: 'string' } };
    }
    paths[path] ??= {};
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(r.scope ? { 'x-required-scope': r.scope } : {}),
      ...(r.public ? { security: [] } : r.operator ? { security: [{ bearer: [] }], 'x-operator': true } : {}),
      parameters,
      ...(r.schema?.body || r.bodyFormat === 'upload' ? { requestBody: { required: true, content: bodyContent } } : {}),
      responses: responsesOf(r, components),
    };
  }
  const used = new Set(routes.map((r) => r.tag));
  const tags = [
    ...TAG_ORDER.filter((t) => used.has(t.name)),
    ...[...used].filter((t) => !TAG_ORDER.some((o) => o.name === t)).map((name) => ({ name })),
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Retail back-office API',
      version: config.version,
      description:
        'Inbound NF-e, supplier product map, payables, purchase orders, sales orders, quick sale and returns. Every response carries API-Version. ' +
        'Authorize once with the bearer token and the tenant headers (x-company-id, and x-filial-id for routes without a filial in the path).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [], companyId: [], filialId: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        companyId: {
          type: 'apiKey',
          in: 'header',
          name: 'x-company-id',
          description: "The token's company (hashid); required on every authenticated call.",
        },
        filialId: {
          type: 'apiKey',
          in: 'header',
          name: 'x-filial-id',
          description: 'The filial (hashid) governing calls whose path has no :filialId.',
        },
      },
      schemas: {
        Problem: {
          type: 'object',
          description: 'RFC 9457 problem details; routes may add members (currentStatus, currentVersion, problems, cStat, xMotivo…).',
          required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$', description: 'stable UPPER_SNAKE machine code' },
            errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
            requestId: { type: 'string' },
          },
        },
        ...components,
      },
    },
  };
}
