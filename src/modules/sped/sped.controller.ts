import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toSpedFileDto, toTraceDto } from './sped.mapper';
import { spedSchemas as s } from './sped.schemas';
import { requestEfd, spedContent, spedFile, spedTrace } from './sped.service';

export async function request(req: ValidRequest<typeof s.request>, res: Response) {
  res.status(202).json(toSpedFileDto(await requestEfd(req.ctx, req.valid.body)));
}

export async function status(req: ValidRequest<typeof s.byId>, res: Response) {
  res.json(toSpedFileDto(await spedFile(req.ctx, req.valid.params.id)));
}

export async function download(req: ValidRequest<typeof s.byId>, res: Response) {
  const { file, bytes } = await spedContent(req.ctx, req.valid.params.id);
  res.type('text/plain; charset=iso-8859-1').setHeader('Content-Disposition', `attachment; filename="EFD-ICMS-IPI-${file.period}.txt"`);
  res.send(bytes);
}

export async function trace(req: ValidRequest<typeof s.trace>, res: Response) {
  const { id } = req.valid.params;
  res.json(toTraceDto(await spedTrace(req.ctx, id, req.valid.query.register, req.valid.query.line)));
}
