import type { Schema } from 'joi';

type JsonSchema = Record<string, unknown>;
interface Description {
  type?: string;
  flags?: Record<string, any>;
  rules?: { name: string; args?: Record<string, any> }[];
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description }[];
  allow?: unknown[];
  metas?: Record<string, any>[];
}

/** Converts joi's own description of a schema to JSON Schema (the subset OpenAPI 3.1 uses). */
export function describeToJsonSchema(d: Description): JsonSchema {
  const meta = Object.assign({}, ...(d.metas ?? []));
  const out: JsonSchema = {};
  if (d.flags?.description) out.description = d.flags.description;
  if (d.flags?.default !== undefined && typeof d.flags.default !== 'function') out.default = d.flags.default;
  if (meta.hashid) return { ...out, type: 'string', description: `${meta.hashid} id (hashid)`, example: 'x7Gk2pQa', 'x-hashid': meta.hashid };
  if (meta.decimal !== undefined) {
    return {
      ...out,
      oneOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }],
      description: `exact decimal, up to ${meta.decimal} places, from ${meta.minimum} to ${meta.maximum}${meta.exclusiveMinimumZero ? ', greater than 0' : ''}`,
      'x-decimal': { scale: meta.decimal, minimum: meta.minimum, maximum: meta.maximum, ...(meta.exclusiveMinimumZero ? { exclusiveMinimum: '0' } : {}) },
    };
  }
  if (meta.format) return { ...out, type: 'string', format: meta.format };
  const valids = d.flags?.only ? d.allow : undefined;
  switch (d.type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [k, v] of Object.entries(d.keys ?? {})) {
        properties[k] = describeToJsonSchema(v);
        if (v.flags?.presence === 'required') required.push(k);
      }
      // Declared keys are the only ones accepted (unknown fields → 400).
      return { ...out, type: 'object', properties, ...(required.length ? { required } : {}), ...(d.keys && !d.flags?.unknown ? { additionalProperties: false } : {}) };
    }
    case 'array': {
      const items = d.items?.length ? describeToJsonSchema(d.items[0]) : {};
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      return { ...out, type: 'array', items, ...(min !== undefined ? { minItems: min } : {}), ...(max !== undefined ? { maxItems: max } : {}) };
    }
    case 'alternatives':
      return { ...out, oneOf: (d.matches ?? []).filter((m) => m.schema).map((m) => describeToJsonSchema(m.schema!)) };
    case 'number': {
      const integer = d.rules?.some((r) => r.name === 'integer');
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      return { ...out, type: integer ? 'integer' : 'number', ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
    }
    case 'boolean':
      return { ...out, type: 'boolean' };
    case 'date':
      return { ...out, type: 'string', format: 'date-time' };
    case 'any':
      return out;
    default: {
      const s: JsonSchema = { ...out, type: 'string' };
      if (valids?.length) s.enum = valids.filter((v) => v !== null && v !== '');
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      const pattern = d.rules?.find((r) => r.name === 'pattern')?.args?.regex;
      if (min !== undefined) s.minLength = min;
      if (max !== undefined) s.maxLength = max;
      if (pattern) s.pattern = String(pattern).replace(/^\/|\/[a-z]*$/g, '');
      return s;
    }
  }
}

export const joiToJsonSchema = (schema: Schema): JsonSchema => describeToJsonSchema(schema.describe() as Description);
