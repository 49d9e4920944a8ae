import type { Schema } from 'joi';
import type { ResourceType } from '../hashids';
import { exampleIdsOf } from './example-ids';

type JsonSchema = Record<string, unknown>;
interface Description {
  type?: string;
  flags?: Record<string, any>;
  preferences?: { presence?: string };
  rules?: { name: string; args?: Record<string, any> }[];
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description }[];
  patterns?: { rule?: Description; schema?: Description }[];
  allow?: unknown[];
  examples?: unknown[];
  metas?: Record<string, any>[];
}

/** Named schemas met while converting (joi `.meta({ component })`), for OpenAPI `components.schemas`. */
export type ComponentRegistry = Record<string, JsonSchema>;

const FORMAT_EXAMPLES: Record<string, string> = { date: '2026-03-14', 'date-time': '2026-03-14T13:45:00Z' };

/** Real ids of the examples: the hashid of a plausible row number, so examples decode like real ones. */
const exampleId = (type: string) => exampleIdsOf(type as ResourceType)[0];

/**
 * Converts joi's own description of a schema to JSON Schema (the subset OpenAPI 3.1 uses). A schema
 * with `.meta({ component: 'Name' })` is stored once in `components` and referenced by `$ref`.
 */
export function describeToJsonSchema(d: Description, components?: ComponentRegistry): JsonSchema {
  const meta = Object.assign({}, ...(d.metas ?? []));
  if (meta.component && components) {
    if (!components[meta.component]) {
      components[meta.component] = {}; // placeholder: a schema that refers to itself stops here
      // The component is the schema itself: a use that allows null says so at the reference, below.
      components[meta.component] = convert({ ...d, allow: (d.allow ?? []).filter((v) => v !== null) }, meta, components);
    }
    const ref = { $ref: `#/components/schemas/${meta.component}` };
    return nullable(d) ? { anyOf: [ref, { type: 'null' }] } : ref;
  }
  return convert(d, meta, components);
}

const nullable = (d: Description) => (d.allow ?? []).includes(null);

function convert(d: Description, meta: Record<string, any>, components?: ComponentRegistry): JsonSchema {
  const schema = convertType(d, meta, components);
  if (d.examples?.length && schema.example === undefined) schema.example = d.examples[0];
  if (!nullable(d)) return schema;
  if (typeof schema.type === 'string')
    return { ...schema, type: [schema.type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  return { anyOf: [schema, { type: 'null' }] };
}

function convertType(d: Description, meta: Record<string, any>, components?: ComponentRegistry): JsonSchema {
  const out: JsonSchema = {};
  if (d.flags?.description) out.description = d.flags.description;
  if (d.flags?.default !== undefined && typeof d.flags.default !== 'function') out.default = d.flags.default;
  if (meta.hashid)
    return {
      ...out,
      type: 'string',
      description: out.description ?? `${meta.hashid} id (hashid)`,
      example: exampleId(meta.hashid),
      'x-hashid': meta.hashid,
    };
  if (meta.decimal !== undefined) {
    return {
      ...out,
      oneOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }],
      description: decimalDescription(out.description as string | undefined, meta),
      'x-decimal': {
        scale: meta.decimal,
        minimum: meta.minimum,
        maximum: meta.maximum,
        ...(meta.exclusiveMinimumZero ? { exclusiveMinimum: '0' } : {}),
      },
      ...(meta.example !== undefined ? { example: meta.example } : {}),
    };
  }
  if (meta.format) return { ...out, type: 'string', format: meta.format, example: meta.example ?? FORMAT_EXAMPLES[meta.format] };
  const valids = d.flags?.only ? (d.allow ?? []).filter((v) => v !== null && v !== '') : undefined;
  switch (d.type) {
    case 'object': {
      // Response objects declare every key required unless marked optional (prefs presence 'required').
      const allRequired = d.preferences?.presence === 'required';
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [k, v] of Object.entries(d.keys ?? {})) {
        if (v.flags?.presence === 'forbidden') continue;
        properties[k] = describeToJsonSchema(v, components);
        if (v.flags?.presence === 'required' || (allRequired && v.flags?.presence !== 'optional')) required.push(k);
      }
      const pattern = d.patterns?.[0]?.rule;
      if (pattern) return { ...out, type: 'object', additionalProperties: describeToJsonSchema(pattern, components) };
      // Declared keys are the only ones accepted (unknown fields → 400) or given.
      return {
        ...out,
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        ...(d.keys && !d.flags?.unknown ? { additionalProperties: false } : {}),
      };
    }
    case 'array': {
      const items = d.items?.length ? describeToJsonSchema(d.items[0], components) : {};
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      return {
        ...out,
        type: 'array',
        items,
        ...(min !== undefined ? { minItems: min } : {}),
        ...(max !== undefined ? { maxItems: max } : {}),
      };
    }
    case 'alternatives':
      return { ...out, oneOf: (d.matches ?? []).filter((m) => m.schema).map((m) => describeToJsonSchema(m.schema!, components)) };
    case 'number': {
      const integer = d.rules?.some((r) => r.name === 'integer');
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      return {
        ...out,
        type: integer ? 'integer' : 'number',
        ...(valids?.length ? { enum: valids } : {}),
        ...(min !== undefined ? { minimum: min } : {}),
        ...(max !== undefined ? { maximum: max } : {}),
      };
    }
    case 'boolean':
      return { ...out, type: 'boolean', ...(valids?.length ? { enum: valids } : {}) };
    case 'date':
      return { ...out, type: 'string', format: 'date-time' };
    case 'any':
      return out;
    default: {
      const s: JsonSchema = { ...out, type: 'string' };
      if (valids?.length) s.enum = valids;
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      const max = d.rules?.find((r) => r.name === 'max')?.args?.limit;
      const pattern = d.rules?.find((r) => r.name === 'pattern')?.args?.regex;
      if (d.rules?.some((r) => r.name === 'isoDate')) s.format = 'date-time';
      if (d.rules?.some((r) => r.name === 'custom' && r.args?.description === 'cpf/cnpj')) s.example = '11222333000181';
      if (min !== undefined) s.minLength = min;
      if (max !== undefined) s.maxLength = max;
      if (pattern) s.pattern = String(pattern).replace(/^\/|\/[a-z]*$/g, '');
      return s;
    }
  }
}

const DECIMAL_EXAMPLE: Record<string, string> = {
  amount: '"1289.90"',
  quantity: '"12.5"',
  price: '"18.9"',
  cost: '"8.4367"',
  factor: '"12"',
  percent: '"5.5"',
};

const DECIMAL_KIND: Record<string, string> = {
  amount: 'An amount in reais',
  quantity: 'A quantity',
  price: 'A unit price',
  cost: 'A unit cost',
  factor: 'A conversion factor',
  percent: 'A percentage',
};

/**
 * How a person would describe an exact-decimal field: what it is, its decimal places, and the bounds
 * a caller can meet (greater than 0, at least/at most a value the route chose). The column's own
 * limits (999999999…) stay in `x-decimal` for machines: nobody types them.
 */
function decimalDescription(own: string | undefined, meta: Record<string, any>): string {
  const bounds = [
    meta.exclusiveMinimumZero
      ? 'greater than 0'
      : meta.givenMin !== undefined
        ? Number(meta.givenMin) === 0
          ? 'not negative'
          : `at least ${meta.givenMin}`
        : '',
    // A ceiling a person could meet (a percentage's 100); one near the column's own is left out.
    meta.givenMax !== undefined && Number(meta.givenMax) < 1_000_000 ? `at most ${meta.givenMax}` : '',
  ].filter(Boolean);
  const rule = `up to ${meta.decimal} decimal places${bounds.length ? `, ${bounds.join(' and ')}` : ''}; a JSON number or a numeric string (e.g. ${DECIMAL_EXAMPLE[meta.kind] ?? '"10.5"'})`;
  const what = own ?? DECIMAL_KIND[meta.kind] ?? 'An exact decimal';
  return `${what.replace(/[.;]\s*$/, '')}: ${rule}.`;
}

export const joiToJsonSchema = (schema: Schema, components?: ComponentRegistry): JsonSchema =>
  describeToJsonSchema(schema.describe() as Description, components);
