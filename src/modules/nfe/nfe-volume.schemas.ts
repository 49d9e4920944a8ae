import { id, Joi, pagination } from '../../core/http/schema';

/** Request schemas of the volume routes: batch uploads, DANFE, manifestation deadlines. */

const jobParams = Joi.object({ id: id('nfe-batch').required(), filialId: id('filial').required() });

export const nfeVolumeSchemas = {
  /** The body is the upload itself (ZIP or multipart); nothing else is accepted. */
  batchUpload: { query: Joi.object({}) },
  batchGet: {
    params: jobParams,
    query: Joi.object({
      ...pagination,
      pageSize: Joi.number().integer().min(1).max(100).default(100),
      outcome: Joi.string().valid('PENDING', 'STAGED', 'DUPLICATE', 'INVALID').description("only the files with this outcome"),
    }),
  },
  batchStream: { params: jobParams, query: Joi.object({}) },
  deadlines: {
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      withinDays: Joi.number().integer().min(0).max(366).default(7).description('deadline on or before today + withinDays'),
      includeOverdue: Joi.boolean().default(false).description('also those whose deadline has passed without a conclusive manifestation'),
    }),
  },
  inboundRecord: { params: Joi.object({ id: id('nfe-inbound').required(), filialId: id('filial').required() }), query: Joi.object({}) },
};
