import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import * as batch from './batch/batch.service';
import { danfePdf } from './danfe/danfe.service';
import { listDeadlines, recordDeadlines } from './deadlines/manifestation-deadlines.service';
import { brasiliaDate } from './deadlines/deadline-rules';
import { toBatchFileDto, toBatchJobDto, toDeadlineDto, toDeadlineEntryDto } from './nfe-volume.mapper';
import { toInboundDto } from './nfe.mapper';
import { nfeVolumeSchemas as s } from './nfe-volume.schemas';

/** Thin handlers of the volume routes. */

export async function batchUpload(req: Request, res: Response) {
  const job = await batch.createBatch(req.ctx, req.body, req.headers['content-type']);
  res.status(202).location(toBatchJobDto(job).links.self).json(toBatchJobDto(job));
}

export async function batchGet(req: ValidRequest<typeof s.batchGet>, res: Response) {
  const { id, filialId } = req.valid.params;
  const { job, files } = await batch.batchWithFiles(req.ctx, id, filialId, req.valid.query);
  res.json({ ...toBatchJobDto(job), files: mapPage(files, toBatchFileDto) });
}

/** Server-sent events: `progress` (the job), `file` (each outcome as it is reached), `done` at the end. */
export async function batchStream(req: ValidRequest<typeof s.batchStream>, res: Response) {
  let closed = false;
  req.on('close', () => (closed = true));
  const frame = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  let ping: NodeJS.Timeout | undefined;
  try {
    const job = await batch.watchBatch(
      req.ctx,
      req.valid.params.id,
      req.valid.params.filialId,
      (p) => {
        if (!res.headersSent) {
          res.writeHead(200, {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache',
            Connection: 'keep-alive',
            'X-Accel-Buffering': 'no',
          });
          ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
        }
        for (const f of p.files) frame('file', toBatchFileDto(f));
        frame('progress', toBatchJobDto(p.job));
      },
      { isClosed: () => closed },
    );
    if (!closed) frame(job.status === 'DONE' || job.status === 'FAILED' ? 'done' : 'timeout', toBatchJobDto(job));
    res.end();
  } finally {
    if (ping) clearInterval(ping);
  }
}

export async function danfe(req: ValidRequest<typeof s.inboundRecord>, res: Response) {
  const r = await danfePdf(req.ctx, req.valid.params.id, req.valid.params.filialId);
  res.type('application/pdf').setHeader('Content-Disposition', `inline; filename="${r.inbound.accessKey}-danfe.pdf"`);
  res.send(r.pdf);
}

export async function deadlines(req: ValidRequest<typeof s.deadlines>, res: Response) {
  const now = new Date();
  const today = brasiliaDate(now);
  const page = await listDeadlines(req.ctx, req.valid.params.filialId, req.valid.query, now);
  res.json({ today, ...mapPage(page, (e) => toDeadlineEntryDto(e, today)) });
}

export async function inboundDeadlines(req: ValidRequest<typeof s.inboundRecord>, res: Response) {
  const r = await recordDeadlines(req.ctx, req.valid.params.id, req.valid.params.filialId);
  res.json({ inbound: toInboundDto(r.inbound), deadlines: toDeadlineDto(r.deadline, brasiliaDate(new Date())) });
}
