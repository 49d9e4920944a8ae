import BaseJoi from 'joi';
import { Dec, SCALE, ScaleName } from '../decimal';
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
 * An exact decimal given as a number or a numeric string, at most `scale` decimal places, returned
 * as a Dec. Floats never reach the arithmetic.
 */
export const decimal = (scale: ScaleName | number, opts: { min?: number; positive?: boolean; max?: number } = {}) => {
  const places = typeof scale === 'number' ? scale : SCALE[scale];
  return Joi.alternatives()
    .try(Joi.number(), Joi.string().trim().pattern(/^-?\d+(\.\d+)?$/))
    .custom((value: number | string, helpers) => {
      const d = new Dec(typeof value === 'number' ? value.toString() : value);
      if (d.decimalPlaces() > places) return helpers.error('decimal.scale', { places });
      if (opts.positive && d.lte(0)) return helpers.error('decimal.positive');
      if (opts.min !== undefined && d.lt(opts.min)) return helpers.error('decimal.min', { min: opts.min });
      if (opts.max !== undefined && d.gt(opts.max)) return helpers.error('decimal.max', { max: opts.max });
      return d;
    }, `decimal(${places})`)
    .messages({
      'alternatives.types': '{{#label}} must be a number or a numeric string',
      'alternatives.match': '{{#label}} must be a number or a numeric string',
      'decimal.scale': '{{#label}} must have at most {{#places}} decimal places',
      'decimal.positive': '{{#label}} must be greater than 0',
      'decimal.min': '{{#label}} must be at least {{#min}}',
      'decimal.max': '{{#label}} must be at most {{#max}}',
    })
    .meta({ decimal: places });
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

/** Calendar date 'YYYY-MM-DD'. */
export const isoDate = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/).message('{{#label}} must be a date YYYY-MM-DD');

export const pagination = {
  page: Joi.number().integer().min(1).default(1),
  pageSize: Joi.number().integer().min(1).max(100).default(20),
  cursor: Joi.string().max(500),
  includeTotal: Joi.boolean().default(true),
};

export const version = () => Joi.number().integer().min(1).required().description('current version (optimistic lock)');

/** A real calendar date 'YYYY-MM-DD' (the pattern alone would accept 2024-02-30). */
export const calendarDate = () =>
  isoDate()
    .custom((value: string, helpers) => {
      const d = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value ? value : helpers.error('date.calendar');
    })
    .messages({ 'date.calendar': '{{#label}} is not a calendar date' });
