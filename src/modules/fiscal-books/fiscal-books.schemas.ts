import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { PERIOD_PATTERN } from './period';

/* Request schemas of /fiscal-books. */

export const period = () =>
  Joi.string()
    .pattern(PERIOD_PATTERN)
    .messages({ 'string.pattern.base': '{{#label}} must be a month, YYYY-MM' })
    .description('the fiscal month, YYYY-MM')
    .example('2026-11');

export const fiscalBookSchemas = {
  summary: typedSchema<{ params: { filialId: number; period: string }; query: { format: 'json' | 'csv' } }>({
    params: Joi.object({ filialId: id('filial').required(), period: period().required() }),
    query: Joi.object({ format: Joi.string().valid('json', 'csv').default('json').description('json (default) or csv') }),
  }),
};
