import { exampleIdsOf } from '../../core/openapi/example-ids';
import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { id, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { DfeLogService } from '../authority';
import type { ManifestInput } from './manifestation.service';

/*
 * Request schemas of the DF-e routes (sync, key query, download, manifestation, state, schedule, log).
 * A justification is 15–255 characters and only NAO_REALIZADA requires it (the layout's xJust);
 * anything else is refused here, before any call.
 */

const accessKey = Joi.string().trim().uppercase().pattern(ACCESS_KEY_PATTERN).message('{{#label}} must be the 44-character access key');
const filialParam = Joi.object({ filialId: id('filial').required() });
const EVENTS = ['CIENCIA', 'CONFIRMACAO', 'DESCONHECIMENTO', 'NAO_REALIZADA'] as const;

type ByFilial = { params: { filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const dfeSchemas = {
  consultInbound: typedSchema<{ body: { accessKey?: string; inboundId?: number } }>({
    body: Joi.object({
      accessKey: accessKey,
      inboundId: id('nfe-inbound'),
    }).xor('accessKey', 'inboundId'),
    // The demo's inbound NF-e where it is seeded (read when the document is built): the key of no row would only show a 404.
    get example() {
      return { inboundId: exampleIdsOf('nfe-inbound')[0] };
    },
  }),
  consultar: typedSchema<{ body: Record<string, never> }>({ body: Joi.object({}) }),
  consultarPorChave: typedSchema<{ body: { accessKey: string } }>({ body: Joi.object({ accessKey: accessKey.required() }) }),
  downloadXml: typedSchema<{ body: { accessKey?: string; inboundId?: number } }>({
    body: Joi.object({ accessKey, inboundId: id('nfe-inbound') }).xor('accessKey', 'inboundId'),
    // The demo's inbound NF-e where it is seeded (read when the document is built).
    get example() {
      return { inboundId: exampleIdsOf('nfe-inbound')[0] };
    },
  }),
  manifestar: typedSchema<{ body: ManifestInput }>({
    body: Joi.object({
      accessKey: accessKey.required(),
      event: Joi.string()
        .valid(...EVENTS)
        .required(),
      justification: Joi.string()
        .trim()
        .min(15)
        .max(255)
        .when('event', {
          is: 'NAO_REALIZADA',
          then: Joi.required().messages({ 'any.required': '{{#label}} is required for NAO_REALIZADA (15 to 255 characters)' }),
          otherwise: Joi.forbidden().messages({ 'any.unknown': '{{#label}} is only sent with NAO_REALIZADA' }),
        }),
    }),
  }),
  state: typedSchema<ByFilial>({ params: filialParam }),
  scheduleList: typedSchema<{ query: Record<string, never> }>({ query: Joi.object({}) }),
  log: typedSchema<ByFilial & { query: PageRequest & { service?: DfeLogService; envelopes: boolean } }>({
    params: filialParam,
    query: Joi.object({
      ...pagination,
      service: Joi.string().valid('DIST_DFE', 'RECEPCAO_EVENTO'),
      envelopes: Joi.boolean().default(false).description('include the envelopes sent and received'),
    }),
  }),
};
