import type { NextFunction, Request, Response } from 'express';
import type { Schema, ValidationErrorItem, ValidationResult } from 'joi';
import { filialAccess } from '../auth/tenancy';
import { config } from '../config';
import { Dec } from '../decimal';
import { ValidationError } from '../errors';
import type { RouteSchema } from './route';

// joi's defaults object (its internals have no typings); see below. A library internal, registered in
// docs/decisions/library-internals.md (joi pinned exactly; guarded by tests/core/library-internals.test.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a package-internal file without typings
const JoiCommon: unknown = require('joi/lib/common');

const formatPath = (item: ValidationErrorItem): string =>
  item.path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : String(seg)), '');

const isEmptyBody = (body: unknown) =>
  body === undefined ||
  body === null ||
  body === '' ||
  (typeof body === 'object' && !Array.isArray(body) && Object.keys(body as object).length === 0);

/** Every field of a part the route declares no schema for is unknown. */
function unexpected(part: 'query' | 'body', input: unknown): ValidationErrorItem[] {
  // A raw upload (ZIP, multipart) is one opaque body, not a set of fields.
  if (part === 'body' && (isEmptyBody(input) || Buffer.isBuffer(input))) return [];
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    return Object.keys(input).map(
      (key) =>
        ({
          message: `"${key}" is not allowed`,
          path: part === 'body' ? [key] : [part, key],
          type: 'object.unknown',
        }) as ValidationErrorItem,
    );
  }
  return [{ message: 'this route takes no request body', path: [], type: 'object.unknown' } as ValidationErrorItem];
}

/*
 * Requests are validated with joi's defaults (unknown keys refused, nothing stripped, values
 * converted) except one: every problem is listed, not only the first. That one is set on joi's
 * defaults themselves, not passed per call: joi keeps the merged preferences of a schema that has
 * its own (every `.messages()` is one: ids, decimals, dates) only while validating with its defaults,
 * and otherwise merges them again — recompiling those messages — at every such schema of every
 * request. Whoever needs other options passes them explicitly (configuration, settings). Measured
 * against joi as published (validating a failed part again with `abortEarly: false`): a request that
 * fails validation costs 5.4 % less CPU this way (bench/library-internals.bench.ts).
 */
(JoiCommon as { defaults: { abortEarly: boolean } }).defaults.abortEarly = false;

/** joi builds an Error for a failed validation; its stack trace (never read: the details are) is most of that cost. */
function validateWithoutStack(schema: Schema, input: unknown): ValidationResult {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return schema.validate(input);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The test suite holds every fast reading of a body (RouteSchema.fastBody) to joi's. */
const crossCheck = config.env === 'test';

function assertSameAsJoi(schema: Schema, input: unknown, fast: unknown): void {
  const { value, error } = schema.validate(input);
  if (error || !sameValue(value, fast)) {
    throw new Error(
      `fastBody disagrees with joi on ${JSON.stringify(input)}: joi ${error ? error.message : JSON.stringify(value)}, fast ${JSON.stringify(fast)}`,
    );
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Dec || b instanceof Dec) return a instanceof Dec && b instanceof Dec && a.toString() === b.toString();
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return sameValue(ka, kb) && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return Object.is(a, b);
}

/**
 * Validates params, query and body with the route's joi schemas and puts the converted values on
 * `req.valid`. Only declared fields are accepted: an unknown body or query field is listed in a 400
 * (UNKNOWN_FIELDS when that is all that is wrong), so a typo is never dropped silently. A malformed
 * id anywhere → 400 INVALID_ID; any other failure → 400 VALIDATION_ERROR with every problem listed.
 * The filial of the call (x-filial-id, a `filialId` path param) was authorized before (authorize-filial.ts).
 */
export function validate(schema: RouteSchema = {}) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const valid = { params: {} as Record<string, any>, query: {} as Record<string, any>, body: undefined as any };
    const problems: ValidationErrorItem[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const partSchema = schema[part];
      const input = part === 'body' ? req.body : { ...(req[part] as object) };
      if (!partSchema) {
        if (part !== 'params') problems.push(...unexpected(part, input));
        valid[part] = part === 'body' ? undefined : {};
        continue;
      }
      const fast = part === 'body' && schema.fastBody ? schema.fastBody(input) : undefined;
      if (fast !== undefined) {
        if (crossCheck) assertSameAsJoi(partSchema, input, fast);
        valid.body = fast;
        continue;
      }
      const { value, error } = validateWithoutStack(partSchema, part === 'body' && input === undefined ? {} : input);
      if (error) problems.push(...error.details.map((d) => ({ ...d, path: part === 'body' ? d.path : [part, ...d.path] })));
      else valid[part] = value;
    }
    if (problems.length) {
      const errors = problems.map((p) => ({ path: formatPath(p), message: p.message.replace(/"/g, '') }));
      const only = (type: string) => problems.every((p) => p.type === type);
      const code = only('id.malformed') ? 'INVALID_ID' : only('object.unknown') ? 'UNKNOWN_FIELDS' : 'VALIDATION_ERROR';
      const title =
        code === 'INVALID_ID'
          ? 'Malformed id'
          : code === 'UNKNOWN_FIELDS'
            ? `Unknown fields: ${errors.map((e) => e.path || 'body').join(', ')}`
            : 'Invalid request';
      throw new ValidationError(title, errors, code);
    }
    req.valid = valid;
    next();
  };
}

/**
 * The check authorizeFilial() left to the handler (RouteDef.filialCheck 'handler'), made now: a handler
 * that does not read the filial with its own first round trip calls this before anything else.
 */
export async function confirmFilial(req: Pick<Request, 'ctx' | 'filialUnchecked'>): Promise<void> {
  if (!req.filialUnchecked) return;
  await filialAccess.get().assertFilialAccess(req.ctx, req.ctx.filialId!);
  req.filialUnchecked = false;
}
