import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { businessToday } from '../../core/business-date';
import { settlementHandlers } from '../open-items';
import { toPayableDetailDto, toPayableDto, toPayablesSummaryDto, toPaymentResultDto } from './payables.mapper';
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

/** Detail, pay and reverse: the open-items kernel's handlers over the payables' use cases and DTOs. */
export const {
  detail,
  settle: pay,
  reverse,
} = settlementHandlers({
  detail: getPayableDetail,
  detailDto: (d: Awaited<ReturnType<typeof getPayableDetail>>, today) => toPayableDetailDto(d.payable, d.payments, today),
  settle: registerPayment,
  reverse: reversePayment,
  resultDto: toPaymentResultDto,
  settlementParam: 'paymentId',
});
