import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { businessToday } from '../../core/business-date';
import { toPayableDetailDto, toPayableDto, toPayablesSummaryDto, toPaymentDto } from './payables.mapper';
import { listDocumentPayables, listPayables } from './payables.service';
import { payableSchemas as s } from './payables.schemas';
import { getPayableDetail, payableAuditTrail, registerPayment, reversePayment } from './payments.service';

export async function byDocument(req: ValidRequest<typeof s.byDocument>, res: Response) {
  const today = businessToday();
  res.json(mapPage(await listDocumentPayables(req.ctx, req.valid.params.entryDocumentId, req.valid.query), (p) => toPayableDto(p, today)));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  const today = businessToday();
  const { summary, ...page } = await listPayables(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json({ ...mapPage(page, (p) => toPayableDto(p, today)), summary: toPayablesSummaryDto(summary) });
}

export async function auditTrail(req: ValidRequest<typeof s.auditTrail>, res: Response) {
  res.json(await payableAuditTrail(req.ctx, req.valid.params.id, req.valid.query));
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  const { payable, payments } = await getPayableDetail(req.ctx, req.valid.params.id);
  res.json(toPayableDetailDto(payable, payments, businessToday()));
}

export async function pay(req: ValidRequest<typeof s.pay>, res: Response) {
  const { payable, payment, payments } = await registerPayment(req.ctx, req.valid.params.id, req.valid.body);
  res.status(201).json({ payment: toPaymentDto(payment), payable: toPayableDetailDto(payable, payments, businessToday()) });
}

export async function reverse(req: ValidRequest<typeof s.reversePayment>, res: Response) {
  const { payable, payment, payments } = await reversePayment(req.ctx, req.valid.params.paymentId, req.valid.body.reason);
  res.json({ payment: toPaymentDto(payment), payable: toPayableDetailDto(payable, payments, businessToday()) });
}
