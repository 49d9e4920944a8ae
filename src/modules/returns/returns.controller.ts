import type { Request, Response } from 'express';
import { mapPage } from '../../core/pagination';
import { toReturnableItemDto, toReturnDto } from './returns.mapper';
import { returnsService } from './returns.service';

export async function returnableItems(req: Request, res: Response) {
  const { customerId, ...page } = req.valid.query;
  res.json(mapPage(await returnsService.returnableItems(req.ctx, req.valid.params.filialId, customerId, page), toReturnableItemDto));
}

export async function register(req: Request, res: Response) {
  res.status(201).json(toReturnDto(await returnsService.register(req.ctx, req.valid.params.filialId, req.valid.body)));
}

export async function list(req: Request, res: Response) {
  res.json(mapPage(await returnsService.list(req.ctx, req.valid.params.filialId, req.valid.query), toReturnDto));
}

export async function detail(req: Request, res: Response) {
  res.json(toReturnDto(await returnsService.detail(req.ctx, req.valid.params.id)));
}
