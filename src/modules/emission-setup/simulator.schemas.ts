import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';

type ByFilial = { params: { filialId: number } };
const params = Joi.object({ filialId: id('filial').required() });

export const simulatorSchemas = {
  attach: typedSchema<ByFilial & { body: { certificate?: 'ISSUE' | 'KEEP' } }>({
    params,
    body: Joi.object({
      certificate: Joi.string()
        .valid('ISSUE', 'KEEP')
        .description(
          'ISSUE: the simulator issues the filial an A1 of its CA (replacing one it has); KEEP: the filial’s own certificate stays. Default: KEEP when it has one, else ISSUE',
        ),
    }),
  }),
  detach: typedSchema<ByFilial>({ params }),
};
