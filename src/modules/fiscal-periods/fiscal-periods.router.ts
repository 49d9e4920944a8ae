import { defineRoutes } from '../../core/http/route';
import * as c from './fiscal-periods.controller';
import { FiscalPeriodDetail, FiscalPeriodList } from './fiscal-periods.responses';
import { fiscalPeriodSchemas as s } from './fiscal-periods.schemas';

const TAG = 'Fiscal periods';

/** Literal paths before parameterized ones. */
export const fiscalPeriodRoutes = defineRoutes([
  {
    method: 'get',
    path: '/fiscal-periods/:filialId',
    tag: TAG,
    summary: "The filial's months (default: the last twelve), newest first, each OPEN or CLOSED",
    scope: 'fiscal:read',
    schema: s.list,
    responses: { body: FiscalPeriodList, errors: { 422: ['FISCAL_PERIOD_RANGE_INVALID'] } },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/fiscal-periods/:filialId/:period',
    tag: TAG,
    summary:
      'One month of the filial: its status and the documents still inside a legal window (NF-e cancellable, NFC-e within the UF limit, contingency, answers in flight, DF-e not manifested)',
    scope: 'fiscal:read',
    schema: s.detail,
    responses: { body: FiscalPeriodDetail },
    handler: c.detail,
  },
  {
    method: 'post',
    path: '/fiscal-periods/:filialId/:period/close',
    tag: TAG,
    summary:
      'Close the month: from then on nothing dated in it changes (emission, cancellation, CC-e, voiding, entry documents, returns, adjustments, transfers: 409 FISCAL_PERIOD_CLOSED). Refused with the list (409 FISCAL_PERIOD_PENDING_DOCUMENTS) while documents are inside a legal window, unless force',
    scope: 'fiscal:write',
    schema: s.close,
    idempotent: true,
    responses: {
      body: FiscalPeriodDetail,
      errors: { 409: ['FISCAL_PERIOD_CLOSED', 'FISCAL_PERIOD_PENDING_DOCUMENTS', 'STALE_VERSION'], 422: ['FISCAL_PERIOD_IN_FUTURE'] },
    },
    handler: c.close,
  },
  {
    method: 'post',
    path: '/fiscal-periods/:filialId/:period/reopen',
    tag: TAG,
    summary: 'Reopen a closed month, with the reason (audited, event fiscal-period.reopened)',
    scope: 'fiscal:write',
    schema: s.reopen,
    idempotent: true,
    responses: { body: FiscalPeriodDetail, errors: { 409: ['FISCAL_PERIOD_OPEN', 'STALE_VERSION'] } },
    handler: c.reopen,
  },
]);
