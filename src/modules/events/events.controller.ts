import type { Request, Response } from 'express';
import { decodeId, isMalformedId } from '../../core/hashids';
import { mapPage } from '../../core/pagination';
import { toDeliveryDto, toEventDto, toWebhookDto } from './events.mapper';
import { readEvents } from './events.service';
import { webhookService } from './webhooks.service';

export async function list(req: Request, res: Response) {
  const q = req.valid.query;
  let closed = false;
  req.on('close', () => (closed = true));
  const events = await readEvents(req.ctx, { after: q.after ?? 0, types: q.types, limit: q.limit, wait: q.wait }, () => closed);
  const data = events.map(toEventDto);
  res.json({ data, nextCursor: data.length ? data[data.length - 1].id : (req.query.after ?? null) });
}

const HEARTBEAT_MS = 15_000;

/** Server-sent events: resumes after `Last-Event-ID` (or `after`), polls the outbox, heartbeats. */
export async function stream(req: Request, res: Response) {
  const lastEventId = req.header('last-event-id');
  let after: number = req.valid.query.after ?? 0;
  if (lastEventId && !isMalformedId(lastEventId)) after = decodeId('event', lastEventId);
  res.status(200).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  res.write(': connected\n\n');
  let closed = false;
  req.on('close', () => (closed = true));
  let lastBeat = Date.now();
  while (!closed) {
    const events = await readEvents(req.ctx, { after, types: req.valid.query.types, limit: 100, wait: 1 }, () => closed);
    for (const e of events) {
      const dto = toEventDto(e);
      res.write(`id: ${dto.id}\nevent: ${dto.type}\ndata: ${JSON.stringify(dto)}\n\n`);
      after = e.id;
    }
    if (Date.now() - lastBeat > HEARTBEAT_MS) {
      res.write(': ping\n\n');
      lastBeat = Date.now();
    }
  }
  res.end();
}

export async function createWebhook(req: Request, res: Response) {
  const { subscription, secret } = await webhookService.create(req.ctx, req.valid.body);
  res.status(201).json({ ...toWebhookDto(subscription), secret });
}

export async function listWebhooks(req: Request, res: Response) {
  res.json(mapPage(await webhookService.list(req.ctx, req.valid.query as never), toWebhookDto));
}

export async function deleteWebhook(req: Request, res: Response) {
  await webhookService.remove(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function deliveries(req: Request, res: Response) {
  res.json(mapPage(await webhookService.deliveries(req.ctx, req.valid.params.id, req.valid.query as never), toDeliveryDto));
}
