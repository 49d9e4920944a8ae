import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { purchaseSchemas as s } from './purchase.schemas';
import { toOpenItemDto, toPurchaseOrderDto, toReceiptsDto } from './purchase.mapper';
import { createFromRequest } from './services/create.service';
import { deleteOrder, patchOrder } from './services/edit.service';
import { getOrder, listOpenItems, listOrders, orderAuditTrail, orderReceipts } from './services/query.service';
import { approveOrder, cancelOrder, closeOrder } from './services/status.service';

/* Thin handlers: validated input → one service call → DTO. */

export async function create(req: ValidRequest<typeof s.create>, res: Response) {
  res.status(201).json(toPurchaseOrderDto(await createFromRequest(req.ctx, req.valid.body)));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listOrders(req.ctx, req.valid.params.filialId, req.valid.query), toPurchaseOrderDto));
}

export async function auditTrail(req: ValidRequest<typeof s.auditTrail>, res: Response) {
  res.json(await orderAuditTrail(req.ctx, req.valid.params.id, req.valid.query));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toPurchaseOrderDto(await getOrder(req.ctx, req.valid.params.id)));
}

export async function openItems(req: ValidRequest<typeof s.openItems>, res: Response) {
  res.json(mapPage(await listOpenItems(req.ctx, req.valid.params.filialId, req.valid.query), toOpenItemDto));
}

export async function receipts(req: ValidRequest<typeof s.receipts>, res: Response) {
  res.json(toReceiptsDto(await orderReceipts(req.ctx, req.valid.params.id, req.valid.query)));
}

export async function update(req: ValidRequest<typeof s.update>, res: Response) {
  res.json(toPurchaseOrderDto(await patchOrder(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function approve(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toPurchaseOrderDto(await approveOrder(req.ctx, req.valid.params.id)));
}

export async function cancel(req: ValidRequest<typeof s.cancel>, res: Response) {
  res.json(toPurchaseOrderDto(await cancelOrder(req.ctx, req.valid.params.id, req.valid.body?.reason ?? null)));
}

export async function close(req: ValidRequest<typeof s.close>, res: Response) {
  res.json(toPurchaseOrderDto(await closeOrder(req.ctx, req.valid.params.id, req.valid.body?.reason ?? null)));
}

export async function remove(req: ValidRequest<typeof s.byId>, res: Response) {
  await deleteOrder(req.ctx, req.valid.params.id);
  res.status(204).end();
}
