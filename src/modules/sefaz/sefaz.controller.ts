import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { getCertificate, saveCertificate } from './certificate/certificate.service';
import { toCertificateDto } from './sefaz.mapper';
import { sefazSchemas as s } from './sefaz.schemas';

/** Thin handlers of the certificate routes: validated input → one service call → DTO. */

export async function certificateGet(req: ValidRequest<typeof s.certificateGet>, res: Response) {
  res.json(toCertificateDto(await getCertificate(req.ctx.companyId, req.valid.params.filialId)));
}

export async function certificatePut(req: ValidRequest<typeof s.certificatePut>, res: Response) {
  res.json(toCertificateDto(await saveCertificate(req.ctx, req.valid.params.filialId, req.valid.body)));
}
