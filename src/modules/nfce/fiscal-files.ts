import type { Response } from 'express';
import type { TenantContext } from '../../core/context';
import { NotFoundError } from '../../core/errors';
import type { ValidRequest } from '../../core/http/typed-input';
import { voidingId } from '../fiscal-xml';
import { gunzipText } from '../outbound-nfe';
import { nfceSchemas as s } from './nfce.schemas';
import { getNfce } from './query.service';

/*
 * The NFC-e's fiscal files besides its nfeProc: the procEventoNFe of its cancellation (110111), and what
 * settled the online attempt it replaced — the procEventoNFe of the substitution (110112) or the
 * procInutNFe of the attempt's number — as stored when the authority registered them.
 */

async function cancellationFile(ctx: TenantContext, id: number): Promise<{ xml: string; fileName: string }> {
  const doc = await getNfce(ctx, id);
  if (!doc.cancelXmlGz) throw new NotFoundError('NFC-e event', 'NFCE_EVENT_NOT_FOUND');
  return { xml: gunzipText(doc.cancelXmlGz), fileName: `${doc.accessKey}-110111-01-procEventoNFe.xml` };
}

async function originalFile(ctx: TenantContext, id: number): Promise<{ xml: string; fileName: string }> {
  const doc = await getNfce(ctx, id);
  if (!doc.originalXmlGz || !doc.onlineKey) throw new NotFoundError('NFC-e event', 'NFCE_EVENT_NOT_FOUND');
  const xml = gunzipText(doc.originalXmlGz);
  const fileName =
    doc.originalOutcome === 'SUBSTITUTED'
      ? `${doc.onlineKey}-110112-01-procEventoNFe.xml`
      : `${voidingId(xml) ?? doc.onlineKey}-procInutNFe.xml`;
  return { xml, fileName };
}

const send = (res: Response, file: { xml: string; fileName: string }) => {
  res.type('application/xml').setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
  res.send(file.xml);
};

/** GET /nfce/:id/cancellation/xml */
export async function cancellationXml(req: ValidRequest<typeof s.byId>, res: Response) {
  send(res, await cancellationFile(req.ctx, req.valid.params.id));
}

/** GET /nfce/:id/original/xml */
export async function originalXml(req: ValidRequest<typeof s.byId>, res: Response) {
  send(res, await originalFile(req.ctx, req.valid.params.id));
}
