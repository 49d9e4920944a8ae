import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import * as apportion from './apportion.service';
import * as cancel from './cancel.service';
import { toApportionPreviewDto, toApportionResultDto, toCancelDto, toCteDto, toDetailDto, toParsedCteDto } from './cte.mapper';
import { cteSchemas as s } from './cte.schemas';
import * as ctes from './cte.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function preview(req: ValidRequest<typeof s.preview>, res: Response) {
  const r = await ctes.previewCte(req.ctx, req.valid.body.xml);
  res.json({ document: toParsedCteDto(r.inspection), report: r.inspection.report, stored: r.existing ? toCteDto(r.existing) : null });
}

export async function stageXml(req: ValidRequest<typeof s.stageXml>, res: Response) {
  const r = await ctes.stageCte(req.ctx, req.valid.body.xml);
  res.status(r.created ? 201 : 200).json({ created: r.created, cte: toCteDto(r.cte), report: r.inspection.report });
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  const { carrier, ...query } = req.valid.query;
  res.json(mapPage(await ctes.listCtes(req.ctx, req.valid.params.filialId, { ...query, issuer: carrier }), toCteDto));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toDetailDto(await ctes.cteDetail(req.ctx, req.valid.params.id)));
}

export async function xml(req: ValidRequest<typeof s.byId>, res: Response) {
  const r = await ctes.cteXml(req.ctx, req.valid.params.id);
  res.type('application/xml').setHeader('Content-Disposition', `inline; filename="${r.cte.accessKey}-procCTe.xml"`);
  res.send(r.xml);
}

export async function apportionPreview(req: ValidRequest<typeof s.apportionPreview>, res: Response) {
  res.json(toApportionPreviewDto(await apportion.previewApportion(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function apply(req: ValidRequest<typeof s.apportion>, res: Response) {
  res.json(toApportionResultDto(await apportion.applyApportion(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function cancelPreview(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toCancelDto(await cancel.cancelPreview(req.ctx, req.valid.params.id)));
}

export async function cancelCte(req: ValidRequest<typeof s.cancel>, res: Response) {
  const { reason, version } = req.valid.body;
  res.json(toCancelDto(await cancel.cancelCte(req.ctx, req.valid.params.id, reason || null, version)));
}
