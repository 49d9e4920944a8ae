import type { Response } from 'express';
import { encodeId } from '../../core/hashids';
import type { ValidRequest } from '../../core/http/typed-input';
import { setupSchemas as s } from './emission-setup.schemas';
import { toAuthorityDto, toContingencyDto, toReadinessDto } from './emission-setup.mapper';
import { enterManualContingency, leaveContingency } from './contingency.service';
import { authoritySettings, filialReadiness, putAuthoritySettings } from './readiness.service';

export async function readiness(req: ValidRequest<typeof s.byFilial>, res: Response): Promise<void> {
  const { filialId } = req.valid.params;
  res.json(toReadinessDto(await filialReadiness(req.ctx, filialId, encodeId('filial', filialId))));
}

export async function authority(req: ValidRequest<typeof s.byFilial>, res: Response): Promise<void> {
  res.json(toAuthorityDto(await authoritySettings(req.ctx, req.valid.params.filialId)));
}

export async function putAuthority(req: ValidRequest<typeof s.putAuthority>, res: Response): Promise<void> {
  res.json(toAuthorityDto(await putAuthoritySettings(req.ctx, req.valid.params.filialId, req.valid.body)));
}

export async function enterContingency(req: ValidRequest<typeof s.enterContingency>, res: Response): Promise<void> {
  const { filialId } = req.valid.params;
  res.status(201).json(toContingencyDto(filialId, await enterManualContingency(req.ctx, filialId, req.valid.body.reason)));
}

export async function leave(req: ValidRequest<typeof s.byFilial>, res: Response): Promise<void> {
  await leaveContingency(req.ctx, req.valid.params.filialId);
  res.status(204).end();
}
