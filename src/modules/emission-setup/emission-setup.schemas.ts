import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';

type ByFilial = { params: { filialId: number } };

export const setupSchemas = {
  byFilial: typedSchema<ByFilial>({ params: Joi.object({ filialId: id('filial').required() }) }),
};
