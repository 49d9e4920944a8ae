import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toPayableDto } from '../payables';
import { cancelEntryDocument, cancelPreview } from './cancel';
import { confirmEntryDocument, confirmPreview } from './confirm';
import type { EntryDocumentDetail } from './detail';
import {
  appliedMappingDto,
  checkDto,
  installmentDto,
  toEntryDocumentSummaryDto,
  toItemDto,
  toPreparedDraftDto,
} from './entry-document.mapper';
import { entryDocumentSchemas as s } from './entry-document.schemas';
import * as service from './entry-document.service';
import { applyProductMap, reviewLines } from './review-lines';
import { patchEntryDocument } from './update-draft';
import { taxCreditDto } from './fiscal/fiscal.mapper';

/** Thin handlers: validated input → one service call → DTO. */

/** The detail every route that reads or changes one document answers with. */
function detailDto({ state, items, payables, nfe, review, taxCredits, purchaseMatch }: EntryDocumentDetail) {
  return {
    ...toEntryDocumentSummaryDto(state.doc),
    items: items.map((it) => toItemDto(it, it.productId ? state.products.get(it.productId) : undefined)),
    installments: state.installments.map(installmentDto),
    payables: payables.map((p) => toPayableDto(p)),
    taxCredits: taxCredits.map(taxCreditDto),
    nfe,
    review: review && { blockingProblems: review.blocking.map(checkDto), warnings: review.warnings.map(checkDto) },
    purchaseMatch,
  };
}

export async function create(req: ValidRequest<typeof s.create>, res: Response) {
  res.status(201).json(detailDto(await service.createManualDraft(req.ctx, req.valid.body)));
}

export async function previewManual(req: ValidRequest<typeof s.previewManual>, res: Response) {
  const { prepared, supplier, purchaseMatch } = await service.previewManualDraft(req.ctx, req.valid.body);
  res.json({ ...toPreparedDraftDto(prepared, supplier, null), purchaseMatch });
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await service.listEntryDocuments(req.ctx, req.valid.params.filialId, req.valid.query), toEntryDocumentSummaryDto));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(detailDto(await service.getEntryDocumentDetail(req.ctx, req.valid.params.id)));
}

export async function audit(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(await service.auditSummary(req.ctx, req.valid.params.id));
}

export async function auditHistory(req: ValidRequest<typeof s.auditHistory>, res: Response) {
  const page = await service.auditHistory(req.ctx, req.valid.params.id, req.valid.query);
  res.json(
    mapPage(page, (a) => ({
      action: a.action,
      actor: a.actor,
      requestId: a.requestId,
      at: new Date(a.createdAt).toISOString(),
      changes: a.changes,
    })),
  );
}

export async function patch(req: ValidRequest<typeof s.patch>, res: Response) {
  const { version, ...changes } = req.valid.body;
  res.json(detailDto(await patchEntryDocument(req.ctx, req.valid.params.id, version, changes)));
}

export async function confirmPreviewHandler(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(await confirmPreview(req.ctx, req.valid.params.id));
}

export async function confirm(req: ValidRequest<typeof s.byId>, res: Response) {
  const { detail, stockMovements, thirdPartyStockMovements } = await confirmEntryDocument(req.ctx, req.valid.params.id);
  res.json({ ...detailDto(detail), stockMovements, thirdPartyStockMovements });
}

export async function cancelPreviewHandler(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(await cancelPreview(req.ctx, req.valid.params.id));
}

export async function cancel(req: ValidRequest<typeof s.cancel>, res: Response) {
  const { detail, stockMovements, thirdPartyStockMovements } = await cancelEntryDocument(
    req.ctx,
    req.valid.params.id,
    req.valid.body?.reason || null,
  );
  res.json({ ...detailDto(detail), stockMovements, thirdPartyStockMovements });
}

export async function remove(req: ValidRequest<typeof s.byId>, res: Response) {
  await service.deleteEntryDocument(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function reviewLinesHandler(req: ValidRequest<typeof s.reviewLines>, res: Response) {
  const { version, lines } = req.valid.body;
  res.json(detailDto(await reviewLines(req.ctx, req.valid.params.id, version, lines)));
}

export async function applyProductMapHandler(req: ValidRequest<typeof s.applyProductMap>, res: Response) {
  const { detail, applied } = await applyProductMap(req.ctx, req.valid.params.id, req.valid.body.version);
  res.json({ ...detailDto(detail), applied: applied.map(appliedMappingDto) });
}
