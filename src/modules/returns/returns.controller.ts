import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toReturnableItemDto, toReturnDto } from './returns.mapper';
import { returnSchemas as s } from './returns.schemas';
import { returnsService } from './returns.service';
import { importCustomerReturn } from './imported-return.service';

export async function returnableItems(req: ValidRequest<typeof s.returnableItems>, res: Response) {
  const { customerId, ...page } = req.valid.query;
  res.json(mapPage(await returnsService.returnableItems(req.ctx, req.valid.params.filialId, customerId, page), toReturnableItemDto));
}

export async function register(req: ValidRequest<typeof s.register>, res: Response) {
  res
    .status(201)
    .json(
      toReturnDto(await returnsService.register(req.ctx, req.valid.params.filialId, req.valid.body, req.header('idempotency-key') ?? null)),
    );
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await returnsService.list(req.ctx, req.valid.params.filialId, req.valid.query), toReturnDto));
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  res.json(toReturnDto(await returnsService.detail(req.ctx, req.valid.params.id)));
}

export async function issueDocument(req: ValidRequest<typeof s.issueDocument>, res: Response) {
  res
    .status(201)
    .json(toReturnDto(await returnsService.issueDocument(req.ctx, req.valid.params.id, req.header('idempotency-key') ?? null)));
}

export async function importNfe(req: ValidRequest<typeof s.importNfe>, res: Response) {
  res.status(201).json(toReturnDto(await importCustomerReturn(req.ctx, req.valid.params.filialId, req.valid.body)));
}
