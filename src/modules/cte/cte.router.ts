import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import * as c from './cte.controller';
import {
  ApportionPreview,
  ApportionResult,
  CancelView,
  CTE_REPORT_BLOCKING,
  CTE_XML_READ,
  CteDetail,
  CtePage,
  CtePreview,
  CteStaged,
} from './cte.responses';
import { cteSchemas as s } from './cte.schemas';

const READ = 'entry-document:read';
const WRITE = 'entry-document:write';
const TAG = 'CT-e';

const NOT_FOUND = ['CTE_NOT_FOUND'];
const STATE = ['CTE_RECEIVED', 'CTE_APPORTIONED', 'CTE_CANCELLED', 'STALE_VERSION'];
const XML_IN = { 400: [...CTE_XML_READ, 'MISSING_TENANT_HEADER'], 404: ['FILIAL_NOT_FOUND'] };

/** All literal under /entry-document/cte: mounted before the entry document's '/entry-document/:id'. */
export const cteRoutes = defineRoutes([
  {
    method: 'post',
    path: '/entry-document/cte/preview',
    tag: TAG,
    summary:
      'Parse and validate a CT-e XML ({ xml } or an XML body) against the governing filial: the document and its validation report, nothing stored',
    scope: READ,
    bodyFormat: 'xml',
    schema: s.preview,
    responses: { body: CtePreview, errors: XML_IN },
    handler: c.preview,
  },
  {
    method: 'post',
    path: '/entry-document/cte/stage-xml',
    tag: TAG,
    summary:
      'Validate a CT-e (cteProc 4.00: key model 57, signature, protocol, environment, the filial is the payer) and store it; 201 new, 200 already stored',
    scope: WRITE,
    bodyFormat: 'xml',
    idempotent: true,
    status: 201,
    schema: s.stageXml,
    responses: { body: CteStaged, alsoStatus: 200, errors: { ...XML_IN, 422: CTE_REPORT_BLOCKING } },
    handler: c.stageXml,
  },
  {
    method: 'post',
    path: '/entry-document/cte/apportion-preview/:id',
    tag: TAG,
    summary:
      "What apportioning the freight would do: the split per document and line (by value, weight, quantity or manual shares), landed costs of drafts, ledger effects of confirmed documents, the carrier's payables, problems",
    scope: READ,
    schema: s.apportionPreview,
    responses: { body: ApportionPreview, errors: { 404: NOT_FOUND } },
    handler: c.apportionPreview,
  },
  {
    method: 'post',
    path: '/entry-document/cte/apportion/:id',
    tag: TAG,
    summary: "Apportion the freight onto the linked entry documents and create the carrier's payables (RECEIVED → APPORTIONED)",
    scope: WRITE,
    idempotent: true,
    schema: s.apportion,
    responses: {
      body: ApportionResult,
      errors: { 404: NOT_FOUND, 409: ['FISCAL_PERIOD_CLOSED', ...STATE], 422: ['CTE_NOT_APPORTIONABLE'] },
    },
    handler: c.apply,
  },
  {
    method: 'get',
    path: '/entry-document/cte/cancel-preview/:id',
    tag: TAG,
    summary: 'What cancelling would reverse (per document and line) and what blocks it',
    scope: READ,
    schema: s.byId,
    responses: { body: CancelView, errors: { 404: NOT_FOUND } },
    handler: c.cancelPreview,
  },
  {
    method: 'post',
    path: '/entry-document/cte/cancel/:id',
    tag: TAG,
    summary: 'Cancel the CT-e: reverse its freight on the documents and cancel its payables (blocked when one is paid)',
    scope: WRITE,
    idempotent: true,
    schema: s.cancel,
    responses: { body: CancelView, errors: { 404: NOT_FOUND, 409: ['FISCAL_PERIOD_CLOSED', ...STATE], 422: ['CTE_NOT_CANCELLABLE'] } },
    handler: c.cancelCte,
  },
  {
    method: 'get',
    path: '/entry-document/cte/detail/:id',
    tag: TAG,
    summary:
      'A CT-e with its parsed document, validation report, the NF-e it carried resolved to inbound records and entry documents, its allocations and payables',
    scope: READ,
    schema: s.byId,
    responses: { body: CteDetail, errors: { 404: NOT_FOUND } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/entry-document/cte/xml/:id',
    tag: TAG,
    summary: 'The stored CT-e XML, exactly as received (application/xml)',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().description('the cteProc XML as received'),
      contentType: 'application/xml',
      errors: { 404: NOT_FOUND },
    },
    handler: c.xml,
  },
  {
    method: 'get',
    path: '/entry-document/cte/list/:filialId',
    tag: TAG,
    summary: 'CT-e of the filial (filters: status, carrier, issue date range, access key, NF-e key; paginated)',
    scope: READ,
    schema: s.list,
    responses: { body: CtePage },
    handler: c.list,
  },
]);
