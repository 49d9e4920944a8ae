import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import {
  toImportPreviewResponse,
  toImportResponse,
  toInboundDto,
  toInboundEventDto,
  toParsedNfeDto,
  toPreviewResponse,
  toReportDto,
} from './nfe.mapper';
import { nfeSchemas as s } from './nfe.schemas';
import * as imports from './nfe-import.service';
import * as inbound from './nfe-inbound.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function preview(req: ValidRequest<typeof s.preview>, res: Response) {
  res.json(toPreviewResponse(await imports.previewNfe(req.ctx, req.valid.body)));
}

export async function previewImport(req: ValidRequest<typeof s.previewImport>, res: Response) {
  res.json(toImportPreviewResponse(await imports.previewImport(req.ctx, req.valid.body)));
}

export async function stageXml(req: ValidRequest<typeof s.stageXml>, res: Response) {
  const r = await inbound.stageXml(req.ctx, req.valid.body.xml);
  res
    .status(r.created ? 201 : 200)
    .json({ created: r.created, inbound: toInboundDto(r.inbound), report: toReportDto(r.inspection.report) });
}

export async function importXml(req: ValidRequest<typeof s.importXml>, res: Response) {
  res.status(201).json(toImportResponse(await imports.importXml(req.ctx, req.valid.body)));
}

export async function importStaged(req: ValidRequest<typeof s.importStaged>, res: Response) {
  res.status(201).json(toImportResponse(await imports.importStaged(req.ctx, req.valid.body)));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await inbound.listInbound(req.ctx, req.valid.params.filialId, req.valid.query), toInboundDto));
}

export async function pending(req: ValidRequest<typeof s.pending>, res: Response) {
  res.json(mapPage(await inbound.listPending(req.ctx, req.valid.params.filialId, req.valid.query), toInboundDto));
}

export async function detail(req: ValidRequest<typeof s.detail>, res: Response) {
  const d = await inbound.inboundDetail(req.ctx, req.valid.params.id, req.valid.params.filialId);
  res.json({
    ...toInboundDto(d.inbound),
    invoice: d.inspection ? toParsedNfeDto(d.inspection.nfe) : null,
    report: d.inspection ? toReportDto(d.inspection.report) : d.inbound.validation,
    events: d.events.map(toInboundEventDto),
  });
}

export async function xml(req: ValidRequest<typeof s.detail>, res: Response) {
  const r = await inbound.inboundXml(req.ctx, req.valid.params.id, req.valid.params.filialId);
  res.type('application/xml').setHeader('Content-Disposition', `inline; filename="${r.inbound.accessKey}-procNFe.xml"`);
  res.send(r.xml);
}
