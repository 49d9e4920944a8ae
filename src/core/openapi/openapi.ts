import { config } from '../config';
import type { RouteDef } from '../http/route';
import { joiToJsonSchema } from './joi-to-json-schema';

const problem = { $ref: '#/components/schemas/Problem' };

/** OpenAPI 3.1 document built from the registered routes and their joi schemas. */
export function buildOpenApi(routes: RouteDef[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
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
    if (!r.public) {
      parameters.push(
        { name: 'x-company-id', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'x-filial-id', in: 'header', required: false, schema: { type: 'string' } },
      );
      if (r.idempotent) parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 120 } });
    }
    const bodyContent: Record<string, unknown> = {};
    if (r.bodyFormat === 'upload') {
      bodyContent['application/zip'] = { schema: { type: 'string', contentMediaType: 'application/zip' } };
      bodyContent['multipart/form-data'] = { schema: { type: 'object', properties: { files: { type: 'array', items: { type: 'string', contentMediaType: 'application/xml' } } } } };
    }
    if (r.schema?.body) {
      bodyContent['application/json'] = { schema: joiToJsonSchema(r.schema.body) };
      if (r.bodyFormat === 'xml') {
        bodyContent['application/xml'] = { schema: { type: 'string' } };
        bodyContent['text/xml'] = { schema: { type: 'string' } };
      }
    }
    const status = String(r.status ?? 200);
    paths[path] ??= {};
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(r.scope ? { 'x-required-scope': r.scope } : {}),
      ...(r.public ? { security: [] } : {}),
      parameters,
      ...(r.schema?.body || r.bodyFormat === 'upload' ? { requestBody: { required: true, content: bodyContent } } : {}),
      responses: {
        [status]: { description: r.responseDescription ?? 'Success' },
        default: { description: 'Problem details (RFC 9457)', content: { 'application/problem+json': { schema: problem } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Retail back-office API',
      version: config.version,
      description: 'Inbound NF-e, supplier product map, payables, sales orders, quick sale and returns. Every response carries API-Version.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', description: 'stable UPPER_SNAKE machine code' },
            errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
            requestId: { type: 'string' },
          },
        },
      },
    },
  };
}
