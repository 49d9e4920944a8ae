import type { Response } from 'express';
import { encodeId } from '../../core/hashids';
import type { ValidRequest } from '../../core/http/typed-input';
import { setupSchemas as s } from './emission-setup.schemas';
import { toAuthorityDto, toReadinessDto } from './emission-setup.mapper';
import { authoritySettings, filialReadiness } from './readiness.service';

export async function readiness(req: ValidRequest<typeof s.byFilial>, res: Response): Promise<void> {
  const { filialId } = req.valid.params;
  res.json(toReadinessDto(await filialReadiness(req.ctx, filialId, encodeId('filial', filialId))));
}

export async function authority(req: ValidRequest<typeof s.byFilial>, res: Response): Promise<void> {
  res.json(toAuthorityDto(await authoritySettings(req.ctx, req.valid.params.filialId)));
}
