import { defineRoutes } from '../../core/http/route';
import * as c from './ciap.controller';
import { CiapAppropriation, CiapAssetDetail, CiapAssetPage } from './ciap.responses';
import { ciapSchemas as s } from './ciap.schemas';

const TAG = 'CIAP (fixed assets)';

/** Literal paths before parameterized ones. */
export const ciapRoutes = defineRoutes([
  {
    method: 'post',
    path: '/ciap/appropriations',
    tag: TAG,
    summary:
      "Book a month's CIAP parts of a filial (LC 87/1996 art. 20 §5): each asset's 1/48 part of the month × the month's taxed exits / total exits (the fiscal books). Once per month: a later call books only parts still pending and, while the month is open, brings the share up to the books (never a part twice)",
    scope: 'fiscal:write',
    schema: s.appropriate,
    idempotent: true,
    responses: { body: CiapAppropriation, errors: { 409: ['FISCAL_PERIOD_CLOSED', 'CIAP_PART_CHANGED'], 422: ['CIAP_MONTH_IN_FUTURE'] } },
    handler: c.appropriate,
  },
  {
    method: 'get',
    path: '/ciap/assets/detail/:id',
    tag: TAG,
    summary:
      'One CIAP asset: its ICMS, its 48 parts (pending, appropriated with what was credited, or dropped) and the months that booked them',
    scope: 'fiscal:read',
    schema: s.detail,
    responses: { body: CiapAssetDetail, errors: { 404: ['CIAP_ASSET_NOT_FOUND'] } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/ciap/assets/:filialId',
    tag: TAG,
    summary: "The filial's CIAP assets (fixed assets entered with CFOP x551/x406), newest first, with their parts' figures",
    scope: 'fiscal:read',
    schema: s.list,
    responses: { body: CiapAssetPage },
    handler: c.list,
  },
]);
