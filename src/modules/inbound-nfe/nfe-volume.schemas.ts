import { id, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { BatchFilesQuery } from './batch/batch.service';
import type { DeadlineListQuery } from './deadlines/manifestation-deadlines.service';

/** Request schemas of the volume routes: batch uploads, DANFE, manifestation deadlines. */

const jobParams = Joi.object({ id: id('nfe-batch').required(), filialId: id('filial').required() });

type ByInbound = { params: { id: number; filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const nfeVolumeSchemas = {
  /** The body is the upload itself (ZIP or multipart); nothing else is accepted. */
  batchUpload: typedSchema<{ query: Record<string, never> }>({ query: Joi.object({}) }),
  batchGet: typedSchema<ByInbound & { query: BatchFilesQuery }>({
    params: jobParams,
    query: Joi.object({
      ...pagination,
      pageSize: Joi.number().integer().min(1).max(100).default(100),
      outcome: Joi.string().valid('PENDING', 'STAGED', 'DUPLICATE', 'INVALID').description('only the files with this outcome'),
    }),
  }),
  batchStream: typedSchema<ByInbound & { query: Record<string, never> }>({ params: jobParams, query: Joi.object({}) }),
  deadlines: typedSchema<{ params: { filialId: number }; query: DeadlineListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      withinDays: Joi.number().integer().min(0).max(366).default(7).description('deadline on or before today + withinDays'),
      includeOverdue: Joi.boolean().default(false).description('also those whose deadline has passed without a conclusive manifestation'),
    }),
  }),
  inboundRecord: typedSchema<ByInbound & { query: Record<string, never> }>({
    params: Joi.object({ id: id('nfe-inbound').required(), filialId: id('filial').required() }),
    query: Joi.object({}),
  }),
};
