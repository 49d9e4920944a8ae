import BaseJoi from 'joi';
import { columnMax, Dec, DECIMAL_COLUMN, ScaleName } from '../decimal';
import { decodeId, isMalformedId, ResourceType } from '../hashids';
import { normalizeDocument } from '../br-documents';

/*
 * Joi with the service's own types. Every schema in every module is built from these, so the same
 * rules (id decoding, decimal scales, CPF/CNPJ) hold everywhere and feed the OpenAPI document.
 */
export const Joi = BaseJoi;

/** A hashid of `type`, decoded to the internal integer (0 when it does not decode: an unknown id). */
export const id = (type: ResourceType) =>
  Joi.string()
    .custom((value: string, helpers) => (isMalformedId(value) ? helpers.error('id.malformed') : decodeId(type, value)), `hashid:${type}`)
    .messages({ 'id.malformed': '{{#label}} is not a valid id' })
    .meta({ hashid: type })
    .description(`${type} id (hashid)`);

/**
 * An exact decimal given as a number or a numeric string, returned as a Dec. It carries the scale and
 * the range of the column `scale` names (DECIMAL_COLUMN: amount 15,2 · quantity 18,4 · price/cost 21,10 ·
 * factor 15,6 · percent 7,4), so whatever passes fits its column on every engine; `min`/`max` narrow
 * that range further. Floats never reach the arithmetic: a JSON number is read from its shortest
 * decimal form, and numeric strings are taken digit for digit.
 */
export const decimal = (scale: ScaleName, opts: { min?: number; positive?: boolean; max?: number } = {}) => {
  const column = DECIMAL_COLUMN[scale];
  const places = column.scale;
  const limit = columnMax(column.precision, column.scale);
  const max = opts.max !== undefined ? Dec.min(opts.max, limit) : limit;
  const min = opts.min !== undefined ? Dec.max(opts.min, limit.negated()) : limit.negated();
  // The JSON number first: it is what clients send (the SDK, the counters), and joi builds an error
  // report for every alternative tried before the one that matches (a failed string try cost ~40 % of
  // a fulfil body's validation). A value matches at most one of the two (the number is strict, the
  // string takes no number), and every failure answers the same message whatever the order.
  return Joi.alternatives()
    .try(
      Joi.number().strict().unsafe(),
      Joi.string()
        .trim()
        .max(60)
        .pattern(/^-?\d+(\.\d+)?$/)
        .messages({ '*': '{{#label}} must be a number or a numeric string' }),
    )
    .custom((value: number | string, helpers) => {
      const d = new Dec(typeof value === 'number' ? value.toString() : value);
      if (d.decimalPlaces() > places) return helpers.error('decimal.scale', { places });
      if (opts.positive && d.lte(0)) return helpers.error('decimal.positive');
      if (d.lt(min)) return helpers.error('decimal.min', { min: min.toFixed() });
      if (d.gt(max)) return helpers.error('decimal.max', { max: max.toFixed() });
      return d;
    }, `decimal(${column.precision},${places})`)
    .messages({
      'alternatives.types': '{{#label}} must be a number or a numeric string',
      'alternatives.match': '{{#label}} must be a number or a numeric string',
      'decimal.scale': '{{#label}} must have at most {{#places}} decimal places',
      'decimal.positive': '{{#label}} must be greater than 0',
      'decimal.min': '{{#label}} must be at least {{#min}}',
      'decimal.max': '{{#label}} must be at most {{#max}}',
    })
    .meta({
      decimal: places,
      kind: scale,
      minimum: min.toFixed(),
      maximum: max.toFixed(),
      exclusiveMinimumZero: opts.positive === true,
      ...(opts.min !== undefined ? { givenMin: opts.min } : {}),
      ...(opts.max !== undefined ? { givenMax: opts.max } : {}),
    });
};

/** CPF or CNPJ, with or without punctuation, check digits verified; normalized to digits. */
export const document = (kinds: 'cpf' | 'cnpj' | 'any' = 'any') =>
  Joi.string()
    .trim()
    .custom((value: string, helpers) => {
      const normalized = normalizeDocument(value, kinds);
      return normalized ?? helpers.error('document.invalid');
    }, 'cpf/cnpj')
    .messages({ 'document.invalid': `{{#label}} must be a valid ${kinds === 'any' ? 'CPF or CNPJ' : kinds.toUpperCase()}` });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * A real calendar date within the range DATE and DATETIME columns hold on both engines (years
 * 1000–9999): 2026-02-30, 2025-02-29 and 0000-00-00 are not dates.
 */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Calendar date 'YYYY-MM-DD' (kept as the string; see isCalendarDate). */
export const isoDate = () =>
  Joi.string()
    .max(10)
    .custom((value: string, helpers) => (isCalendarDate(value) ? value : helpers.error('date.calendar')), 'calendar date')
    .messages({ 'date.calendar': '{{#label}} must be a calendar date YYYY-MM-DD' })
    .meta({ format: 'date' });

/**
 * An ISO 8601 instant with its offset ('2026-03-01T14:05:00Z', '2026-03-01T11:05:00.250-03:00'),
 * returned as a Date. The date part is a calendar date; hours, minutes, seconds and the offset are in range.
 */
export const isoTimestamp = () =>
  Joi.string()
    .max(40)
    .custom((value: string, helpers) => {
      const m = TIMESTAMP.exec(value);
      const ok =
        !!m &&
        isCalendarDate(m[1]) &&
        Number(m[2]) <= 23 &&
        Number(m[3]) <= 59 &&
        Number(m[4] ?? 0) <= 59 &&
        (m[6] === undefined || (Number(m[6]) <= 14 && Number(m[7]) <= 59));
      const at = ok ? new Date(value) : null;
      return at && !Number.isNaN(at.getTime()) ? at : helpers.error('date.timestamp');
    }, 'ISO 8601 timestamp')
    .messages({ 'date.timestamp': '{{#label}} must be an ISO 8601 timestamp with offset, e.g. 2026-03-01T14:05:00Z' })
    .meta({ format: 'date-time' });

export const pagination = {
  // Deep pages go by cursor; the cap keeps OFFSET arithmetic far from the integer limits.
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  pageSize: Joi.number().integer().min(1).max(100).default(20),
  cursor: Joi.string().max(2000).description('opaque cursor from a previous page (nextCursor) of the same list and filters'),
  includeTotal: Joi.boolean().default(true),
};

export const version = () => Joi.number().integer().min(1).required().description('current version (optimistic lock)');
