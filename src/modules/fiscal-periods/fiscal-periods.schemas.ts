import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';

/* Request schemas of /fiscal-periods. A period is 'YYYY-MM' (the calendar month in America/Sao_Paulo). */

const month = () =>
  Joi.string()
    .pattern(/^(19|20)\d\d-(0[1-9]|1[0-2])$/)
    .messages({ 'string.pattern.base': '{{#label}} must be a month YYYY-MM' })
    .example('2026-11');

const periodParams = Joi.object({ filialId: id('filial').required(), period: month().required().description('the month, YYYY-MM') });

export const fiscalPeriodSchemas = {
  list: typedSchema<{ params: { filialId: number }; query: { from?: string; to?: string } }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      from: month().description('first month listed (default: 11 months before `to`)'),
      to: month().description('last month listed (default: this month)'),
    }),
  }),
  detail: typedSchema<{ params: { filialId: number; period: string } }>({ params: periodParams }),
  close: typedSchema<{ params: { filialId: number; period: string }; body: { force?: boolean } }>({
    params: periodParams,
    body: Joi.object({
      force: Joi.boolean().description(
        'close although documents of the month are still inside a legal window (they are kept on the period as acknowledged)',
      ),
    }).default({}),
  }),
  reopen: typedSchema<{ params: { filialId: number; period: string }; body: { reason: string } }>({
    params: periodParams,
    body: Joi.object({
      reason: Joi.string()
        .trim()
        .min(10)
        .max(500)
        .required()
        .description('why the month is reopened (audited)')
        .example('Nota de devolução recebida do cliente após o fechamento'),
    }),
  }),
};
