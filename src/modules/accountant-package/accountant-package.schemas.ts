import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';

/* Request schemas of the accountant's package. */

const params = Joi.object({
  filialId: id('filial').required(),
  period: Joi.string()
    .pattern(/^(19|20)\d\d-(0[1-9]|1[0-2])$/)
    .messages({ 'string.pattern.base': '{{#label}} must be a month YYYY-MM' })
    .required()
    .example('2026-11')
    .description('the month, YYYY-MM'),
});

export const packageSchemas = {
  download: typedSchema<{ params: { filialId: number; period: string } }>({ params }),
  send: typedSchema<{ params: { filialId: number; period: string }; body: { to: string } }>({
    params,
    body: Joi.object({
      to: Joi.string().trim().email().max(150).required().example('escritorio@contabilidade.com.br').description("the accountant's email"),
    }),
  }),
};
