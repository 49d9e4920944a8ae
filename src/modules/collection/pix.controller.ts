import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { chargeDetail, chargesOf, createCharge, getConnection, putConnection } from './pix-charges.service';
import { receiveWebhook, syncCharge } from './pix-receive.service';
import { listPayments, paymentDetail, requestRefund } from './pix-refunds.service';
import { mapPage } from '../../core/pagination';
import { toChargeDto, toConnectionDto, toPaymentDto, toRefundDto, toSummaryDto } from './pix.mapper';
import { pixSchemas as s } from './pix.schemas';

export async function putPspConnection(req: ValidRequest<typeof s.putConnection>, res: Response) {
  const { account, connection, created } = await putConnection(req.ctx, req.valid.params.bankAccountId, req.valid.body);
  res.status(created ? 201 : 200).json(toConnectionDto(account, connection));
}

export async function pspConnection(req: ValidRequest<typeof s.connection>, res: Response) {
  const { account, connection } = await getConnection(req.ctx, req.valid.params.bankAccountId);
  res.json(toConnectionDto(account, connection));
}

export async function createPixCharge(req: ValidRequest<typeof s.createCharge>, res: Response) {
  res.status(201).json(toChargeDto(await createCharge(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function receivablePixCharges(req: ValidRequest<typeof s.receivableCharges>, res: Response) {
  res.json({ data: (await chargesOf(req.ctx, req.valid.params.id)).map(toChargeDto) });
}

export async function pixCharge(req: ValidRequest<typeof s.charge>, res: Response) {
  res.json(toChargeDto(await chargeDetail(req.ctx, req.valid.params.id)));
}

export async function syncPixCharge(req: ValidRequest<typeof s.charge>, res: Response) {
  const { detail, summary } = await syncCharge(req.ctx, req.valid.params.id);
  res.json({ charge: toChargeDto(detail), summary: toSummaryDto(summary) });
}

export async function pixPayment(req: ValidRequest<typeof s.payment>, res: Response) {
  const { payment, refunds } = await paymentDetail(req.ctx, req.valid.params.id);
  res.json(toPaymentDto(payment, refunds));
}

export async function refundPixPayment(req: ValidRequest<typeof s.refund>, res: Response) {
  const { payment, refunds, refund } = await requestRefund(req.ctx, req.valid.params.id, req.valid.body);
  res.status(201).json({ refund: toRefundDto(refund), payment: toPaymentDto(payment, refunds) });
}

export async function pixWebhook(req: ValidRequest<typeof s.webhook>, res: Response) {
  const secret = req.header('x-pix-webhook-secret');
  const summary = await receiveWebhook({ bankAccountId: req.valid.params.accountId }, secret, req.valid.body.pix, req.requestId);
  res.json({ summary: toSummaryDto(summary) });
}

export async function pixPayments(req: ValidRequest<typeof s.payments>, res: Response) {
  const page = await listPayments(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json(mapPage(page, (d) => toPaymentDto(d.payment, d.refunds)));
}
