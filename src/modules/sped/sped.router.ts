import { defineRoutes } from '../../core/http/route';
import * as c from './sped.controller';
import { SpedFileResponse, SpedFileText, SpedTrace } from './sped.responses';
import { spedSchemas as s } from './sped.schemas';

const TAG = 'SPED';
const NOT_FOUND = { 404: ['SPED_FILE_NOT_FOUND'] };

/** Literal paths before parameterized ones. */
export const spedRoutes = defineRoutes([
  {
    method: 'post',
    path: '/sped/efd-icms-ipi',
    tag: TAG,
    summary:
      'Request the EFD ICMS/IPI of a filial’s month (a job): written from the fiscal books (blocks 0, B, C, D, E, G, H, K, 1, 9; ISO-8859-1, CRLF, the layout version of the period), validated by the service and released only without blocking findings',
    scope: 'fiscal:write',
    schema: s.request,
    idempotent: 'own-transactions',
    status: 202,
    responses: {
      body: SpedFileResponse,
      errors: {
        404: ['INVENTORY_COUNT_NOT_FOUND'],
        422: ['EFD_LAYOUT_UNKNOWN', 'EFD_PERIOD_IN_FUTURE', 'EFD_NOT_REQUIRED', 'INVENTORY_COUNT_NOT_CLOSED'],
      },
    },
    handler: c.request,
  },
  {
    method: 'get',
    path: '/sped/efd-icms-ipi/:id',
    tag: TAG,
    summary: 'The job: status, layout version, line count, sha256 and the validation findings (blocking and warnings)',
    scope: 'fiscal:read',
    schema: s.byId,
    responses: { body: SpedFileResponse, errors: NOT_FOUND },
    handler: c.status,
  },
  {
    method: 'get',
    path: '/sped/efd-icms-ipi/:id/file',
    tag: TAG,
    summary: 'Download the released file (text/plain; charset=iso-8859-1, CRLF)',
    scope: 'fiscal:read',
    schema: s.byId,
    responses: {
      body: SpedFileText,
      contentType: 'text/plain',
      errors: { ...NOT_FOUND, 409: ['SPED_FILE_BLOCKED', 'SPED_FILE_NOT_READY'] },
    },
    handler: c.download,
  },
  {
    method: 'get',
    path: '/sped/efd-icms-ipi/:id/trace',
    tag: TAG,
    summary:
      'What made a line of the file: the document lines (C100/C170/C190/D100/D190/H010) or, for totals (E110, E210, E310), the file lines it sums',
    scope: 'fiscal:read',
    schema: s.trace,
    responses: { body: SpedTrace, errors: { 404: ['SPED_FILE_NOT_FOUND', 'SPED_LINE_NOT_FOUND'], 409: ['SPED_FILE_NOT_READY'] } },
    handler: c.trace,
  },
]);
