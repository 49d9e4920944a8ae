import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { cancelNfce } from './cancel.service';
import { cancelOriginal as cancelOriginalNote } from './substitution.service';
import { getNfceConfiguration, putNfceConfiguration } from './configuration.service';
import { danfeText } from './danfe';
import { toConfigurationDto, toNfceDto } from './nfce.mapper';
import { nfceSchemas as s } from './nfce.schemas';
import { getNfce, listNfce, nfceDanfe, nfceXml } from './query.service';

export async function getConfiguration(req: ValidRequest<typeof s.getConfiguration>, res: Response) {
  const { configuration, nextNumber } = await getNfceConfiguration(req.ctx, req.valid.params.filialId);
  res.json(toConfigurationDto(req.valid.params.filialId, configuration, nextNumber));
}

export async function putConfiguration(req: ValidRequest<typeof s.putConfiguration>, res: Response) {
  const { configuration, nextNumber } = await putNfceConfiguration(req.ctx, req.valid.params.filialId, req.valid.body);
  res.json(toConfigurationDto(req.valid.params.filialId, configuration, nextNumber));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listNfce(req.ctx, req.valid.params.filialId, req.valid.query), toNfceDto));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toNfceDto(await getNfce(req.ctx, req.valid.params.id)));
}

export async function xml(req: ValidRequest<typeof s.byId>, res: Response) {
  const r = await nfceXml(req.ctx, req.valid.params.id);
  res.type('application/xml').setHeader('Content-Disposition', `attachment; filename="${r.doc.accessKey}-nfce.xml"`);
  res.send(r.xml);
}

export async function danfeTxt(req: ValidRequest<typeof s.byId>, res: Response) {
  const doc = await getNfce(req.ctx, req.valid.params.id);
  res.type('text/plain; charset=utf-8').send(danfeText(doc));
}

export async function danfe(req: ValidRequest<typeof s.byId>, res: Response) {
  const { doc, pdf } = await nfceDanfe(req.ctx, req.valid.params.id);
  res.type('application/pdf').setHeader('Content-Disposition', `inline; filename="${doc.accessKey}-danfe-nfce.pdf"`);
  res.send(pdf);
}

export async function cancel(req: ValidRequest<typeof s.cancel>, res: Response) {
  res.json(toNfceDto(await cancelNfce(req.ctx, req.valid.params.id, req.valid.body.justification)));
}

export async function cancelOriginal(req: ValidRequest<typeof s.cancelOriginal>, res: Response) {
  res.json(toNfceDto(await cancelOriginalNote(req.ctx, req.valid.params.id, req.valid.body.justification)));
}
