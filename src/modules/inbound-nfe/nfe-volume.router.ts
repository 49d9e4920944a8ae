import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import * as c from './nfe-volume.controller';
import { DeadlinePage, InboundDeadlines, NfeBatchJob, NfeBatchJobWithFiles } from './nfe-volume.responses';
import { nfeVolumeSchemas as s } from './nfe-volume.schemas';
import { INBOUND_NOT_FOUND } from './nfe.responses';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
const TAG = 'NF-e at volume';
const BATCH_NOT_FOUND = ['NFE_BATCH_NOT_FOUND'];

/** Inbound NF-e at volume: batch uploads with progress, DANFE, manifestation deadlines. Literal paths before parameterized ones. */
export const nfeVolumeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/entry-document/nfe/batch',
    tag: TAG,
    summary:
      'Upload up to 2,000 XML files (NF-e and their events) as a ZIP (application/zip) or multipart/form-data: answered at once (202) with the batch job, staged in the background',
    scope: WRITE,
    bodyFormat: 'upload',
    // The job starts in the background once its row committed.
    idempotent: 'own-transactions',
    status: 202,
    schema: s.batchUpload,
    responses: {
      body: NfeBatchJob,
      errors: {
        400: ['BATCH_EMPTY', 'BATCH_INVALID_ZIP', 'BATCH_INVALID_MULTIPART', 'MISSING_TENANT_HEADER'],
        404: ['FILIAL_NOT_FOUND'],
        413: ['BATCH_TOO_LARGE'],
        422: ['BATCH_ZIP_BOMB', 'BATCH_TOO_MANY_FILES'],
      },
    },
    handler: c.batchUpload,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/batch/stream/:id/:filialId',
    tag: TAG,
    summary: 'Progress of a batch job as server-sent events (progress, file, done)',
    scope: READ,
    schema: s.batchStream,
    responses: {
      body: Joi.string()
        .description(
          'server-sent events: `file` (NfeBatchFile) per outcome reached, `progress` (NfeBatchJob), then `done` (or `timeout`) with the job',
        )
        .example('event: progress\ndata: {"id":"k5Qb9Zr2","status":"RUNNING"}\n\n'),
      contentType: 'text/event-stream',
      errors: { 404: BATCH_NOT_FOUND },
    },
    handler: c.batchStream,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/batch/:id/:filialId',
    tag: TAG,
    summary: 'A batch job: progress (done / total), counts and the outcome of each file (paginated; ?outcome=INVALID …)',
    scope: READ,
    schema: s.batchGet,
    responses: { body: NfeBatchJobWithFiles, errors: { 404: BATCH_NOT_FOUND } },
    handler: c.batchGet,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/manifestation-deadlines/:filialId',
    tag: TAG,
    summary:
      'NF-e of the filial still without a conclusive manifestation whose deadline falls within N days (?withinDays=7), soonest first',
    scope: READ,
    schema: s.deadlines,
    responses: { body: DeadlinePage },
    handler: c.deadlines,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/deadlines/:id/:filialId',
    tag: TAG,
    summary:
      'The manifestation deadlines of an inbound record (confirmação, desconhecimento, operação não realizada) from its authorization date',
    scope: READ,
    schema: s.inboundRecord,
    responses: { body: InboundDeadlines, errors: { 404: INBOUND_NOT_FOUND } },
    handler: c.inboundDeadlines,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/inbound/danfe/:id/:filialId',
    tag: TAG,
    summary: 'The DANFE of a stored NF-e (application/pdf): every layout block, items over as many pages as needed',
    scope: READ,
    schema: s.inboundRecord,
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the DANFE (PDF)'),
      contentType: 'application/pdf',
      errors: { 404: INBOUND_NOT_FOUND, 422: ['NFE_XML_NOT_AVAILABLE'] },
    },
    handler: c.danfe,
  },
]);
