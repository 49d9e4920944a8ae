import { defineRoutes } from '../../core/http/route';
import * as c from './nfe-volume.controller';
import { nfeVolumeSchemas as s } from './nfe-volume.schemas';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
const BASE = '/entry-document/nfe';
const TAG = 'NF-e at volume';

/** Inbound NF-e at volume: batch uploads with progress, DANFE, manifestation deadlines. Literal paths before parameterized ones. */
export const nfeVolumeRoutes = defineRoutes([
  {
    method: 'post',
    path: `${BASE}/batch`,
    tag: TAG,
    summary: 'Upload up to 2,000 XML files (NF-e and their events) as a ZIP (application/zip) or multipart/form-data: answered at once (202) with the batch job, staged in the background',
    scope: WRITE,
    bodyFormat: 'upload',
    // The job starts in the background once its row committed.
    idempotent: 'own-transactions',
    status: 202,
    schema: s.batchUpload,
    handler: c.batchUpload,
  },
  { method: 'get', path: `${BASE}/batch/stream/:id/:filialId`, tag: TAG, summary: 'Progress of a batch job as server-sent events (progress, file, done)', scope: READ, schema: s.batchStream, handler: c.batchStream },
  { method: 'get', path: `${BASE}/batch/:id/:filialId`, tag: TAG, summary: 'A batch job: progress (done / total), counts and the outcome of each file (paginated; ?outcome=INVALID …)', scope: READ, schema: s.batchGet, handler: c.batchGet },
  { method: 'get', path: `${BASE}/manifestation-deadlines/:filialId`, tag: TAG, summary: 'NF-e of the filial still without a conclusive manifestation whose deadline falls within N days (?withinDays=7), soonest first', scope: READ, schema: s.deadlines, handler: c.deadlines },
  { method: 'get', path: `${BASE}/inbound/deadlines/:id/:filialId`, tag: TAG, summary: 'The manifestation deadlines of an inbound record (confirmação, desconhecimento, operação não realizada) from its authorization date', scope: READ, schema: s.inboundRecord, handler: c.inboundDeadlines },
  { method: 'get', path: `${BASE}/inbound/danfe/:id/:filialId`, tag: TAG, summary: 'The DANFE of a stored NF-e (application/pdf): every layout block, items over as many pages as needed', scope: READ, schema: s.inboundRecord, handler: c.danfe },
]);
