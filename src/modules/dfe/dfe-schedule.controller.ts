import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toScheduleDto } from './dfe-schedule.mapper';
import { companySchedule, filialSchedule } from './dfe-schedule.service';
import { dfeSchemas as s } from './dfe.schemas';

/** Thin handlers of the DF-e schedule routes. */

export async function scheduleList(req: Request, res: Response) {
  const views = await companySchedule(req.ctx);
  res.json({ data: views.map((v) => toScheduleDto(v)) });
}

export async function scheduleOfFilial(req: ValidRequest<typeof s.state>, res: Response) {
  res.json(toScheduleDto(await filialSchedule(req.ctx, req.valid.params.filialId)));
}
