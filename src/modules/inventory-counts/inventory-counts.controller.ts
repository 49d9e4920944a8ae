import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toCountDto } from './inventory-counts.mapper';
import { inventoryCountSchemas as s } from './inventory-counts.schemas';
import { cancelCount, closeCount, countDetail, createCount, enterCounts } from './inventory-counts.service';

export async function create(req: ValidRequest<typeof s.create>, res: Response) {
  res.status(201).json(toCountDto(await createCount(req.ctx, req.valid.body)));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toCountDto(await countDetail(req.ctx, req.valid.params.id)));
}

export async function count(req: ValidRequest<typeof s.count>, res: Response) {
  res.json(toCountDto(await enterCounts(req.ctx, req.valid.params.id, req.valid.body.lines)));
}

export async function close(req: ValidRequest<typeof s.close>, res: Response) {
  res.json(toCountDto(await closeCount(req.ctx, req.valid.params.id, req.valid.body?.version)));
}

export async function cancel(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toCountDto(await cancelCount(req.ctx, req.valid.params.id)));
}
