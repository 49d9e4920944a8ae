import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toMovementDto, toReportDto, toSessionDto, toSessionSummaryDto, toTefDto } from './cash-sessions.mapper';
import { cashSessionSchemas as s } from './cash-sessions.schemas';
import * as service from './cash-sessions.service';

export async function open(req: ValidRequest<typeof s.open>, res: Response) {
  res.status(201).json(toSessionDto(await service.openSession(req.ctx, req.valid.body)));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toSessionDto(await service.getSession(req.ctx, req.valid.params.id)));
}

export async function current(req: ValidRequest<typeof s.current>, res: Response) {
  res.json(toSessionDto(await service.currentSession(req.ctx, req.valid.params.filialId, req.valid.params.terminalId)));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await service.listSessions(req.ctx, req.valid.params.filialId, req.valid.query), toSessionSummaryDto));
}

export async function movement(req: ValidRequest<typeof s.movement>, res: Response) {
  const { movement: m, view } = await service.recordMovement(req.ctx, req.valid.params.id, req.valid.body);
  res.status(201).json({ movement: toMovementDto(m), session: toSessionDto(view) });
}

export async function close(req: ValidRequest<typeof s.close>, res: Response) {
  res.json(toSessionDto(await service.closeSession(req.ctx, req.valid.params.id, req.valid.body.counted)));
}

export async function approve(req: ValidRequest<typeof s.approve>, res: Response) {
  res.json(toSessionDto(await service.approveClose(req.ctx, req.valid.params.id, req.valid.body.note)));
}

export async function reopen(req: ValidRequest<typeof s.reopen>, res: Response) {
  res.json(toSessionDto(await service.reopenSession(req.ctx, req.valid.params.id, req.valid.body.reason)));
}

export async function reportX(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toReportDto(await service.sessionReport(req.ctx, req.valid.params.id, 'X')));
}

export async function reportZ(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toReportDto(await service.sessionReport(req.ctx, req.valid.params.id, 'Z')));
}

export async function tef(req: ValidRequest<typeof s.tef>, res: Response) {
  res.status(201).json(toTefDto(req.valid.params.id, await service.authorizeByTef(req.ctx, req.valid.params.id, req.valid.body)));
}
