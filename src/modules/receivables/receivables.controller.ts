import type { Response } from 'express';
import { businessToday } from '../../core/business-date';
import { settlementHandlers } from '../open-items';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import {
  CSV_HEADER,
  toAuditEntryDto,
  toCsvRows,
  toCustomerCreditDto,
  toReceiptResultDto,
  toReceivableDetailDto,
  toReceivableDto,
  toReceivablesSummaryDto,
  toStatementCustomerDto,
} from './receivables.mapper';
import { receivableSchemas as s } from './receivables.schemas';
import { customerStatement, exportReceivables, listReceivables, receivableAuditTrail } from './receivables.service';
import { getReceivableDetail, registerReceipt, reverseReceipt } from './receipts.service';

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  const today = businessToday();
  const { summary, ...page } = await listReceivables(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json({ ...mapPage(page, (r) => toReceivableDto(r, today)), summary: toReceivablesSummaryDto(summary) });
}

/** Detail, receive and reverse: the open-items kernel's handlers over the receivables' use cases and DTOs. */
export const {
  detail,
  settle: receive,
  reverse,
} = settlementHandlers({
  detail: getReceivableDetail,
  detailDto: (d: Awaited<ReturnType<typeof getReceivableDetail>>, today) => toReceivableDetailDto(d.receivable, d.receipts, today),
  settle: registerReceipt,
  reverse: reverseReceipt,
  resultDto: toReceiptResultDto,
  settlementParam: 'receiptId',
});

export async function statement(req: ValidRequest<typeof s.statement>, res: Response) {
  const today = businessToday();
  const { customer, page, summary, credits } = await customerStatement(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json({
    customer: toStatementCustomerDto(customer),
    ...mapPage(page, (x) => toReceivableDetailDto(x.receivable, x.receipts, today)),
    summary: toReceivablesSummaryDto(summary),
    credits: credits.map(toCustomerCreditDto),
  });
}

export async function exportCsv(req: ValidRequest<typeof s.exportCsv>, res: Response) {
  const today = businessToday();
  const chunks = exportReceivables(req.ctx, req.valid.params.filialId, { ...req.valid.query, page: 1, pageSize: 500 });
  // The first page is read before anything is sent, so a failing query still answers a problem document.
  const first = await chunks.next();
  res.status(200).type('text/csv; charset=utf-8').setHeader('Content-Disposition', `attachment; filename="receivables-${today}.csv"`);
  res.write(CSV_HEADER);
  if (!first.done) res.write(toCsvRows(first.value, today));
  for await (const rows of chunks) res.write(toCsvRows(rows, today));
  res.end();
}

export async function audit(req: ValidRequest<typeof s.audit>, res: Response) {
  const { receivable, entries } = await receivableAuditTrail(req.ctx, req.valid.params.id);
  res.json({ receivableId: toReceivableDto(receivable).id, entries: entries.map(toAuditEntryDto) });
}
