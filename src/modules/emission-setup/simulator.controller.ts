import type { Response } from 'express';
import { encodeId } from '../../core/hashids';
import type { ValidRequest } from '../../core/http/typed-input';
import { toCertificateDto } from '../sefaz';
import { attachToLocalAuthority, detachFromLocalAuthority } from './local-authority';
import { simulatorSchemas as s } from './simulator.schemas';

export async function attach(req: ValidRequest<typeof s.attach>, res: Response): Promise<void> {
  const { filialId } = req.valid.params;
  const r = await attachToLocalAuthority(req.ctx, filialId, req.valid.body);
  res.json({
    filialId: encodeId('filial', filialId),
    url: r.url,
    label: r.label,
    certificateIssued: r.certificateIssued,
    certificate: r.certificate ? toCertificateDto(r.certificate) : null,
  });
}

export async function detach(req: ValidRequest<typeof s.detach>, res: Response): Promise<void> {
  await detachFromLocalAuthority(req.ctx, req.valid.params.filialId);
  res.status(204).end();
}
