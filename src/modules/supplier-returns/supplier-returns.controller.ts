import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toPreviewDto, toReturnableDto, toSupplierReturnDetailDto, toSupplierReturnDto } from './supplier-returns.mapper';
import { supplierReturnSchemas as s } from './supplier-returns.schemas';
import { issueReturn, listReturns, previewReturn, returnableLines, returnDetail } from './supplier-returns.service';

export async function returnable(req: ValidRequest<typeof s.returnable>, res: Response) {
  res.json(toReturnableDto(await returnableLines(req.ctx, req.valid.params.entryDocumentId)));
}

export async function preview(req: ValidRequest<typeof s.preview>, res: Response) {
  const { entryDocumentId, ...request } = req.valid.body;
  res.json(toPreviewDto(await previewReturn(req.ctx, entryDocumentId, request)));
}

export async function issue(req: ValidRequest<typeof s.issue>, res: Response) {
  res
    .status(201)
    .json(
      toSupplierReturnDetailDto(
        await issueReturn(req.ctx, req.valid.params.entryDocumentId, req.valid.body, req.header('idempotency-key') ?? null),
      ),
    );
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listReturns(req.ctx, req.valid.params.filialId, req.valid.query), toSupplierReturnDto));
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  res.json(toSupplierReturnDetailDto(await returnDetail(req.ctx, req.valid.params.id)));
}
