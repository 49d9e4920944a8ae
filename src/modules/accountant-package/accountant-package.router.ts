import Joi from 'joi';
import { defineRoutes } from '../../core/http/route';
import * as c from './accountant-package.controller';
import { PackageSent } from './accountant-package.responses';
import { packageSchemas as s } from './accountant-package.schemas';

const TAG = 'Fiscal periods';

export const accountantPackageRoutes = defineRoutes([
  {
    method: 'get',
    path: '/fiscal-periods/:filialId/:period/package.zip',
    tag: TAG,
    summary:
      "The accountant's package of the filial's month (application/zip): every XML issued and received dated in it by model and série (nfeProc with protocol, procEventoNFe of cancellations, CC-e and substitutions, procInutNFe), and manifest.json — counts and totals per model/série/status and CFOP, sha256 of every file, number ranges, gaps without inutilização (blocking), contingency notes pending, received keys never manifested or imported, complete. The same data give the same bytes; header X-Package-Complete",
    scope: 'fiscal:read',
    schema: s.download,
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the package (ZIP)'),
      contentType: 'application/zip',
      errors: { 422: ['FISCAL_PERIOD_IN_FUTURE'] },
    },
    handler: c.download,
  },
  {
    method: 'post',
    path: '/fiscal-periods/:filialId/:period/package/send',
    tag: TAG,
    summary:
      "Mail the month's package to the accountant through the company's SMTP relay (its settings, else SMTP_URL): one ZIP attachment, its sha256 in the message, the answer and the event fiscal-period.package-sent",
    scope: 'fiscal:write',
    schema: s.send,
    idempotent: 'own-transactions',
    responses: { body: PackageSent, errors: { 422: ['FISCAL_PERIOD_IN_FUTURE', 'SMTP_NOT_CONFIGURED'], 502: ['EMAIL_NOT_SENT'] } },
    handler: c.send,
  },
]);
