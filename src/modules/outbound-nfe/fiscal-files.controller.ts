import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { fiscalFileSchemas as s } from './fiscal-files.schemas';
import { cancellationFile, correctionFile, FiscalFile, voidedNumberFile } from './fiscal-files.service';

/** The fiscal files as stored (application/xml, a download named as the layout's files usually are). */
export function sendFiscalFile(res: Response, file: FiscalFile): void {
  res.type('application/xml').setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
  res.send(file.xml);
}

export async function cancellationXml(req: ValidRequest<typeof s.cancellation>, res: Response) {
  sendFiscalFile(res, await cancellationFile(req.ctx, req.valid.params.id));
}

export async function correctionXml(req: ValidRequest<typeof s.correction>, res: Response) {
  sendFiscalFile(res, await correctionFile(req.ctx, req.valid.params.id, req.valid.params.sequence));
}

export async function voidedNumberXml(req: ValidRequest<typeof s.voidedNumber>, res: Response) {
  sendFiscalFile(res, await voidedNumberFile(req.ctx, req.valid.params.seriesId, req.valid.params.number));
}
