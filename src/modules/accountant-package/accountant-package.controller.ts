import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { packageSchemas as s } from './accountant-package.schemas';
import { sendPackage } from './package-delivery';
import { buildPackage } from './package.service';

/** GET /fiscal-periods/:filialId/:period/package.zip — the ZIP as built (the same data give the same bytes). */
export async function download(req: ValidRequest<typeof s.download>, res: Response) {
  const p = await buildPackage(req.ctx, req.valid.params.filialId, req.valid.params.period);
  res.type('application/zip').setHeader('Content-Disposition', `attachment; filename="${p.fileName}"`);
  res.setHeader('X-Package-Complete', String(p.manifest.complete));
  res.send(p.zip);
}

/** POST /fiscal-periods/:filialId/:period/package/send — the package mailed to the accountant. */
export async function send(req: ValidRequest<typeof s.send>, res: Response) {
  res.json(await sendPackage(req.ctx, req.valid.params.filialId, req.valid.params.period, req.valid.body.to));
}
