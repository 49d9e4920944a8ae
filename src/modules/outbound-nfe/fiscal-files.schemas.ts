import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';

/* Request schemas of the fiscal files of /invoices (procEventoNFe, procInutNFe). */

export const fiscalFileSchemas = {
  cancellation: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('invoice').required() }) }),
  correction: typedSchema<{ params: { id: number; sequence: number } }>({
    params: Joi.object({
      id: id('invoice').required(),
      sequence: Joi.number().integer().min(1).max(20).required().description('nSeqEvento of the carta de correção (1..20)').example(1),
    }),
  }),
  voidedNumber: typedSchema<{ params: { seriesId: number; number: number } }>({
    params: Joi.object({
      seriesId: id('invoice-series').required(),
      number: Joi.number().integer().min(1).max(999_999_999).required().description('a number of the série that was voided').example(1),
    }),
  }),
};
