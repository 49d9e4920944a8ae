import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toPeriodDetailDto, toPeriodDto } from './fiscal-periods.mapper';
import { fiscalPeriodSchemas as s } from './fiscal-periods.schemas';
import { closePeriod, listPeriods, periodDetail, reopenPeriod } from './fiscal-periods.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json({ data: (await listPeriods(req.ctx, req.valid.params.filialId, req.valid.query)).map(toPeriodDto) });
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  res.json(toPeriodDetailDto(await periodDetail(req.ctx, req.valid.params.filialId, req.valid.params.period)));
}

export async function close(req: ValidRequest<typeof s.close>, res: Response) {
  res.json(toPeriodDetailDto(await closePeriod(req.ctx, req.valid.params.filialId, req.valid.params.period, req.valid.body ?? {})));
}

export async function reopen(req: ValidRequest<typeof s.reopen>, res: Response) {
  res.json(toPeriodDetailDto(await reopenPeriod(req.ctx, req.valid.params.filialId, req.valid.params.period, req.valid.body)));
}
