import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { syncDfe } from './dfe-sync.service';
import { dfeStatus, listLog } from './dfe-status.service';
import { toDownloadDto, toInboundConsultationDto, toKeyQueryDto, toLogDto, toManifestDto, toStateDto, toSyncDto } from './dfe.mapper';
import { dfeSchemas as s } from './dfe.schemas';
import { downloadXml, queryByKey } from './key-query.service';
import { manifest } from './manifestation.service';
import { consultInboundKey } from './protocol-consultation.service';

/** Thin handlers of the DF-e routes: validated input → one service call → DTO. */

export async function consultar(req: Request, res: Response) {
  res.json(toSyncDto(await syncDfe(req.ctx)));
}

export async function consultarPorChave(req: ValidRequest<typeof s.consultarPorChave>, res: Response) {
  res.json(toKeyQueryDto(await queryByKey(req.ctx, req.valid.body.accessKey)));
}

export async function downloadXmlHandler(req: ValidRequest<typeof s.downloadXml>, res: Response) {
  res.json(toDownloadDto(await downloadXml(req.ctx, req.valid.body)));
}

export async function manifestar(req: ValidRequest<typeof s.manifestar>, res: Response) {
  res.json(toManifestDto(await manifest(req.ctx, req.valid.body)));
}

export async function state(req: ValidRequest<typeof s.state>, res: Response) {
  const status = await dfeStatus(req.ctx, req.valid.params.filialId);
  res.json(toStateDto(req.valid.params.filialId, status.state, status.endpoints, status.certificate));
}

export async function log(req: ValidRequest<typeof s.log>, res: Response) {
  const { envelopes, ...query } = req.valid.query;
  res.json(mapPage(await listLog(req.ctx, req.valid.params.filialId, query), (l) => toLogDto(l, envelopes)));
}

export async function consultInbound(req: ValidRequest<typeof s.consultInbound>, res: Response) {
  res.json(toInboundConsultationDto(await consultInboundKey(req.ctx, req.valid.body)));
}
