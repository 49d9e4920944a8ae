import type { Request, Response } from 'express';
import { mapPage } from '../../core/pagination';
import { getCertificate, saveCertificate } from './certificate/certificate.service';
import { syncDfe } from './dfe-sync.service';
import { downloadXml, queryByKey } from './key-query.service';
import { manifest } from './manifestation.service';
import { toCertificateDto, toDownloadDto, toKeyQueryDto, toLogDto, toManifestDto, toStateDto, toSyncDto } from './sefaz.mapper';
import { listLog, sefazStatus } from './sefaz-status.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function consultar(req: Request, res: Response) {
  res.json(toSyncDto(await syncDfe(req.ctx)));
}

export async function consultarPorChave(req: Request, res: Response) {
  res.json(toKeyQueryDto(await queryByKey(req.ctx, req.valid.body.accessKey)));
}

export async function downloadXmlHandler(req: Request, res: Response) {
  res.json(toDownloadDto(await downloadXml(req.ctx, req.valid.body)));
}

export async function manifestar(req: Request, res: Response) {
  res.json(toManifestDto(await manifest(req.ctx, req.valid.body)));
}

export async function certificateGet(req: Request, res: Response) {
  res.json(toCertificateDto(await getCertificate(req.ctx.companyId, req.valid.params.filialId)));
}

export async function certificatePut(req: Request, res: Response) {
  res.json(toCertificateDto(await saveCertificate(req.ctx, req.valid.params.filialId, req.valid.body)));
}

export async function state(req: Request, res: Response) {
  const s = await sefazStatus(req.ctx, req.valid.params.filialId);
  res.json(toStateDto(req.valid.params.filialId, s.state, s.endpoints, s.certificate));
}

export async function log(req: Request, res: Response) {
  const { envelopes, ...query } = req.valid.query;
  res.json(mapPage(await listLog(req.ctx, req.valid.params.filialId, query), (l) => toLogDto(l, envelopes)));
}
