import type { Request, Response } from 'express';
import { mapPage } from '../../core/pagination';
import { toOpenItemDto, toPurchaseOrderDto, toReceiptsDto } from './purchase.mapper';
import { createFromRequest } from './services/create.service';
import { deleteOrder, patchOrder } from './services/edit.service';
import { getOrder, listOpenItems, listOrders, orderReceipts } from './services/query.service';
import { approveOrder, cancelOrder, closeOrder } from './services/status.service';

/* Thin handlers: validated input → one service call → DTO. */

export async function create(req: Request, res: Response) {
  res.status(201).json(toPurchaseOrderDto(await createFromRequest(req.ctx, req.valid.body)));
}

export async function list(req: Request, res: Response) {
  res.json(mapPage(await listOrders(req.ctx, req.valid.params.filialId, req.valid.query), toPurchaseOrderDto));
}

export async function detail(req: Request, res: Response) {
  res.json(toPurchaseOrderDto(await getOrder(req.ctx, req.valid.params.id)));
}

export async function openItems(req: Request, res: Response) {
  res.json(mapPage(await listOpenItems(req.ctx, req.valid.params.filialId, req.valid.query), toOpenItemDto));
}

export async function receipts(req: Request, res: Response) {
  res.json(toReceiptsDto(await orderReceipts(req.ctx, req.valid.params.id, req.valid.query)));
}

export async function update(req: Request, res: Response) {
  res.json(toPurchaseOrderDto(await patchOrder(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function approve(req: Request, res: Response) {
  res.json(toPurchaseOrderDto(await approveOrder(req.ctx, req.valid.params.id)));
}

export async function cancel(req: Request, res: Response) {
  res.json(toPurchaseOrderDto(await cancelOrder(req.ctx, req.valid.params.id, req.valid.body?.reason ?? null)));
}

export async function close(req: Request, res: Response) {
  res.json(toPurchaseOrderDto(await closeOrder(req.ctx, req.valid.params.id, req.valid.body?.reason ?? null)));
}

export async function remove(req: Request, res: Response) {
  await deleteOrder(req.ctx, req.valid.params.id);
  res.status(204).end();
}
