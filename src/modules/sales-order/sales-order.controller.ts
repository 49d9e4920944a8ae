import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { salesOrderSchemas as s } from './sales-order.schemas';
import {
  toCancelPreviewDto,
  toFulfillmentViewDto,
  toFulfillResultDto,
  toGroupPreviewDto,
  toSalesOrderDto,
  toSalesOrderListDto,
} from './sales-order.mapper';
import { cancelOrder, cancelPreview } from './services/cancel.service';
import { assignCustomer, convertOrderToQuote, convertQuote, deleteOrder, patchOrder } from './services/edit.service';
import { fulfillmentView, fulfillOrder } from './services/fulfill.service';
import { groupOrders, groupPreview } from './services/group.service';
import { getOrderDetail, listOrders, listOrGet } from './services/query.service';

/* Thin handlers: validated input → one service call → DTO. POST /sales-order is quick-sale's (quick-sale.controller.ts). */

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listOrders(req.ctx, req.valid.params.filialId, req.valid.query), (v) => toSalesOrderListDto(v)));
}

export async function listOrRead(req: ValidRequest<typeof s.listOrGet>, res: Response) {
  const result = await listOrGet(req.ctx, req.valid.params.filialIdOrId, req.valid.query, {
    filialUnchecked: req.filialUnchecked === true,
  });
  res.json(result.kind === 'list' ? mapPage(result.page, (v) => toSalesOrderListDto(v)) : toSalesOrderDto(result.view));
}

export async function read(req: ValidRequest<typeof s.get>, res: Response) {
  const { view, fiscalDocuments } = await getOrderDetail(req.ctx, req.valid.params.id);
  res.json({ ...toSalesOrderDto(view), fiscalDocuments });
}

export async function update(req: ValidRequest<typeof s.update>, res: Response) {
  res.json(toSalesOrderDto(await patchOrder(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function remove(req: ValidRequest<typeof s.remove>, res: Response) {
  await deleteOrder(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function assign(req: ValidRequest<typeof s.assignCustomer>, res: Response) {
  res.json(toSalesOrderDto(await assignCustomer(req.ctx, req.valid.params.id, req.valid.body.customerId)));
}

export async function previewGroup(req: ValidRequest<typeof s.group>, res: Response) {
  res.json(toGroupPreviewDto(await groupPreview(req.ctx, req.valid.body.salesOrderIds)));
}

export async function group(req: ValidRequest<typeof s.group>, res: Response) {
  res.status(201).json(toSalesOrderDto(await groupOrders(req.ctx, req.valid.body.salesOrderIds)));
}

export async function fulfillment(req: ValidRequest<typeof s.fulfillment>, res: Response) {
  const v = await fulfillmentView(req.ctx, req.valid.params.id);
  res.json(toFulfillmentViewDto(v.order, v.items, v.fulfillments, v.fulfillmentItems));
}

export async function fulfill(req: ValidRequest<typeof s.fulfill>, res: Response) {
  const r = await fulfillOrder(req.ctx, req.valid.params.id, req.valid.body.items, { filialUnchecked: req.filialUnchecked === true });
  res.status(201).json(toFulfillResultDto(r.order, r.items, r.fulfillment, r.fulfillmentItems, r.boletos));
}

export async function toOrder(req: ValidRequest<typeof s.convertQuote>, res: Response) {
  res.json(toSalesOrderDto(await convertQuote(req.ctx, req.valid.params.salesOrderId)));
}

export async function toQuote(req: ValidRequest<typeof s.convertToQuote>, res: Response) {
  res.json(toSalesOrderDto(await convertOrderToQuote(req.ctx, req.valid.params.salesOrderId, req.valid.body?.validUntil)));
}

export async function previewCancel(req: ValidRequest<typeof s.cancelPreview>, res: Response) {
  res.json(toCancelPreviewDto(await cancelPreview(req.ctx, req.valid.params.salesOrderId)));
}

export async function cancel(req: ValidRequest<typeof s.cancel>, res: Response) {
  res.json(toSalesOrderDto(await cancelOrder(req.ctx, req.valid.params.salesOrderId, req.valid.body.reason)));
}
