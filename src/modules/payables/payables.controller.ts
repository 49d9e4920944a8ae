import type { Request, Response } from 'express';
import { mapPage, PageRequest } from '../../core/pagination';
import { businessToday } from '../../core/business-date';
import { toPayableDetailDto, toPayableDto, toPayablesSummaryDto, toPaymentDto } from './payables.mapper';
import { listDocumentPayables, listPayables, PayableListQuery } from './payables.service';
import { getPayableDetail, registerPayment, reversePayment } from './payments.service';

export async function byDocument(req: Request, res: Response) {
  const today = businessToday();
  res.json(mapPage(await listDocumentPayables(req.ctx, req.valid.params.entryDocumentId, req.valid.query as PageRequest), (p) => toPayableDto(p, today)));
}

export async function list(req: Request, res: Response) {
  const today = businessToday();
  const { summary, ...page } = await listPayables(req.ctx, req.valid.params.filialId, req.valid.query as PayableListQuery);
  res.json({ ...mapPage(page, (p) => toPayableDto(p, today)), summary: toPayablesSummaryDto(summary) });
}

export async function detail(req: Request, res: Response) {
  const { payable, payments } = await getPayableDetail(req.ctx, req.valid.params.id);
  res.json(toPayableDetailDto(payable, payments, businessToday()));
}

export async function pay(req: Request, res: Response) {
  const { payable, payment } = await registerPayment(req.ctx, req.valid.params.id, req.valid.body);
  const { payments } = await getPayableDetail(req.ctx, payable.id);
  res.status(201).json({ payment: toPaymentDto(payment), payable: toPayableDetailDto(payable, payments, businessToday()) });
}

export async function reverse(req: Request, res: Response) {
  const { payable, payment } = await reversePayment(req.ctx, req.valid.params.paymentId, req.valid.body.reason);
  const { payments } = await getPayableDetail(req.ctx, payable.id);
  res.json({ payment: toPaymentDto(payment), payable: toPayableDetailDto(payable, payments, businessToday()) });
}
