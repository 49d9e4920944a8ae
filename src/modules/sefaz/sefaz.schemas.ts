import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { id, Joi, pagination } from '../../core/http/schema';

/*
 * Request schemas of the tax-authority routes. A justification is 15–255 characters and only
 * NAO_REALIZADA requires it (the layout's xJust); anything else is refused here, before any call.
 */

const accessKey = Joi.string().trim().uppercase().pattern(ACCESS_KEY_PATTERN).message('{{#label}} must be the 44-character access key');
const filialParam = Joi.object({ filialId: id('filial').required() });
const EVENTS = ['CIENCIA', 'CONFIRMACAO', 'DESCONHECIMENTO', 'NAO_REALIZADA'] as const;

export const sefazSchemas = {
  consultar: { body: Joi.object({}) },
  consultarPorChave: { body: Joi.object({ accessKey: accessKey.required() }) },
  downloadXml: { body: Joi.object({ accessKey, inboundId: id('nfe-inbound') }).xor('accessKey', 'inboundId') },
  manifestar: {
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
  },
  certificateGet: { params: filialParam },
  certificatePut: {
    params: filialParam,
    body: Joi.object({
      pfx: Joi.string().base64({ paddingRequired: false }).max(200_000).required().description('the A1 certificate file (.pfx / .p12), base64'),
      password: Joi.string().max(200).allow('').required().description('the certificate password (kept encrypted, never returned)'),
    }),
  },
  state: { params: filialParam },
  scheduleList: { query: Joi.object({}) },
  log: {
    params: filialParam,
    query: Joi.object({
      ...pagination,
      service: Joi.string().valid('DIST_DFE', 'RECEPCAO_EVENTO'),
      envelopes: Joi.boolean().default(false).description('include the envelopes sent and received'),
    }),
  },
};
