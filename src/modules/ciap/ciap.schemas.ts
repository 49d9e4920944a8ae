import { id, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { CIAP_ASSET_STATUSES } from './entities/ciap-asset.entity';
import type { AssetListQuery } from './ciap.service';

/* Request schemas of /ciap. A month is 'YYYY-MM' (the calendar month in America/Sao_Paulo). */

const month = () =>
  Joi.string()
    .pattern(/^(19|20)\d\d-(0[1-9]|1[0-2])$/)
    .messages({ 'string.pattern.base': '{{#label}} must be a month YYYY-MM' })
    .example('2026-11');

export const ciapSchemas = {
  appropriate: typedSchema<{ body: { filialId: number; month: string } }>({
    body: Joi.object({
      filialId: id('filial').required().description('the filial whose parts of the month are booked'),
      month: month().required().description('the month whose parts are appropriated, YYYY-MM'),
    }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: AssetListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      status: Joi.string()
        .valid(...CIAP_ASSET_STATUSES)
        .description('only ACTIVE or only CANCELLED assets'),
      ...pagination,
    }),
  }),
  detail: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('ciap-asset').required() }) }),
};
