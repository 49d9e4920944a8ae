import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toTransferDto } from './transfers.mapper';
import { transferSchemas as s } from './transfers.schemas';
import { createTransfer, transferDetail } from './transfers.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function create(req: ValidRequest<typeof s.create>, res: Response) {
  res.status(201).json(toTransferDto(await createTransfer(req.ctx, req.valid.body, req.header('idempotency-key') ?? null)));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toTransferDto(await transferDetail(req.ctx, req.valid.params.id)));
}
