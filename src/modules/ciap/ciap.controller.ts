import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toAppropriationViewDto, toAssetDetailDto, toAssetDto } from './ciap.mapper';
import { ciapSchemas as s } from './ciap.schemas';
import { appropriateMonth, assetDetail, listAssets } from './ciap.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function appropriate(req: ValidRequest<typeof s.appropriate>, res: Response) {
  res.json(toAppropriationViewDto(await appropriateMonth(req.ctx, req.valid.body)));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listAssets(req.ctx, req.valid.params.filialId, req.valid.query), toAssetDto));
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  res.json(toAssetDetailDto(await assetDetail(req.ctx, req.valid.params.id)));
}
