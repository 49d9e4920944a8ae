import { defineRoutes } from '../../core/http/route';
import * as c from './cte.controller';
import { cteSchemas as s } from './cte.schemas';

const READ = 'entry-document:read';
const WRITE = 'entry-document:write';
const BASE = '/entry-document/cte';
const TAG = 'CT-e';

/** All literal under /entry-document/cte: mounted before the entry document's '/entry-document/:id'. */
export const cteRoutes = defineRoutes([
  { method: 'post', path: `${BASE}/preview`, tag: TAG, summary: 'Parse and validate a CT-e XML ({ xml } or an XML body) against the governing filial: the document and its validation report, nothing stored', scope: READ, bodyFormat: 'xml', schema: s.preview, handler: c.preview },
  { method: 'post', path: `${BASE}/stage-xml`, tag: TAG, summary: 'Validate a CT-e (cteProc 4.00: key model 57, signature, protocol, environment, the filial is the payer) and store it; 201 new, 200 already stored', scope: WRITE, bodyFormat: 'xml', idempotent: true, status: 201, schema: s.stageXml, handler: c.stageXml },
  { method: 'post', path: `${BASE}/apportion-preview/:id`, tag: TAG, summary: 'What apportioning the freight would do: the split per document and line (by value, weight, quantity or manual shares), landed costs of drafts, ledger effects of confirmed documents, the carrier\'s payables, problems', scope: READ, schema: s.apportionPreview, handler: c.apportionPreview },
  { method: 'post', path: `${BASE}/apportion/:id`, tag: TAG, summary: 'Apportion the freight onto the linked entry documents and create the carrier\'s payables (RECEIVED → APPORTIONED)', scope: WRITE, idempotent: true, schema: s.apportion, handler: c.apply },
  { method: 'get', path: `${BASE}/cancel-preview/:id`, tag: TAG, summary: 'What cancelling would reverse (per document and line) and what blocks it', scope: READ, schema: s.byId, handler: c.cancelPreview },
  { method: 'post', path: `${BASE}/cancel/:id`, tag: TAG, summary: 'Cancel the CT-e: reverse its freight on the documents and cancel its payables (blocked when one is paid)', scope: WRITE, idempotent: true, schema: s.cancel, handler: c.cancelCte },
  { method: 'get', path: `${BASE}/detail/:id`, tag: TAG, summary: 'A CT-e with its parsed document, validation report, the NF-e it carried resolved to inbound records and entry documents, its allocations and payables', scope: READ, schema: s.byId, handler: c.detail },
  { method: 'get', path: `${BASE}/xml/:id`, tag: TAG, summary: 'The stored CT-e XML, exactly as received (application/xml)', scope: READ, schema: s.byId, handler: c.xml },
  { method: 'get', path: `${BASE}/list/:filialId`, tag: TAG, summary: 'CT-e of the filial (filters: status, carrier, issue date range, access key, NF-e key; paginated)', scope: READ, schema: s.list, handler: c.list },
]);
