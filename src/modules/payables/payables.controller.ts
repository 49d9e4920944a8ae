import type { Request, Response } from 'express';
import { mapPage, PageRequest } from '../../core/pagination';
import { businessToday } from '../entry-document/business-date';
import { toPayableDto, toPayablesSummaryDto } from './payables.mapper';
import { listDocumentPayables, listPayables, PayableListQuery } from './payables.service';

export async function byDocument(req: Request, res: Response) {
  const today = businessToday();
  res.json(mapPage(await listDocumentPayables(req.ctx, req.valid.params.entryDocumentId, req.valid.query as PageRequest), (p) => toPayableDto(p, today)));
}

export async function list(req: Request, res: Response) {
  const today = businessToday();
  const { summary, ...page } = await listPayables(req.ctx, req.valid.params.filialId, req.valid.query as PayableListQuery);
  res.json({ ...mapPage(page, (p) => toPayableDto(p, today)), summary: toPayablesSummaryDto(summary) });
}
