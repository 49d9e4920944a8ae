import type { NextFunction, Request, Response } from 'express';
import type { ValidationErrorItem } from 'joi';
import { assertFilialAccess } from '../auth/tenancy';
import { ValidationError } from '../errors';
import type { RouteSchema } from './route';

const formatPath = (item: ValidationErrorItem): string =>
  item.path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : String(seg)), '');

/**
 * Validates params, query and body with the route's joi schemas and puts the converted values on
 * `req.valid`. A malformed id anywhere → 400 INVALID_ID; any other failure → 400 VALIDATION_ERROR with
 * every problem listed. A `filialId` path param must be granted by the token (403) and becomes the
 * governing filial of the call.
 */
export function validate(schema: RouteSchema = {}) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const valid = { params: {} as Record<string, any>, query: {} as Record<string, any>, body: undefined as any };
    const problems: ValidationErrorItem[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const partSchema = schema[part];
      const input = part === 'body' ? req.body : { ...(req[part] as object) };
      if (!partSchema) {
        valid[part] = part === 'body' ? undefined : {};
        continue;
      }
      const { value, error } = partSchema.validate(part === 'body' && input === undefined ? {} : input, {
        abortEarly: false,
        stripUnknown: true,
        convert: true,
      });
      if (error) problems.push(...error.details.map((d) => ({ ...d, path: part === 'body' ? d.path : [part, ...d.path] })));
      else valid[part] = value;
    }
    if (problems.length) {
      const errors = problems.map((p) => ({ path: formatPath(p), message: p.message.replace(/"/g, '') }));
      const onlyIds = problems.every((p) => p.type === 'id.malformed');
      throw new ValidationError(onlyIds ? 'Malformed id' : 'Invalid request', errors, onlyIds ? 'INVALID_ID' : 'VALIDATION_ERROR');
    }
    req.valid = valid;
    if (typeof valid.params.filialId === 'number' && req.ctx) {
      await assertFilialAccess(req.ctx, valid.params.filialId);
      req.ctx.filialId = valid.params.filialId;
    }
    next();
  };
}
