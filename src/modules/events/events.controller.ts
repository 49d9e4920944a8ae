import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { eventSchemas as s } from './events.schemas';
import { toDeliveryDto, toEventDto, toEventList, toWebhookDto } from './events.mapper';
import { listEvents, readEvents, startPosition } from './events.service';
import { webhookService } from './webhooks.service';

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  const q = req.valid.query;
  let closed = false;
  req.on('close', () => (closed = true));
  res.json(
    toEventList(req.ctx.companyId, await listEvents(req.ctx, q.after, { types: q.types, limit: q.limit, wait: q.wait }, () => closed)),
  );
}

const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events: each event's `id:` is its cursor, so a reconnecting client resumes with
 * `Last-Event-ID` (or `after`); without either the stream starts from now. Polls the outbox, heartbeats.
 */
export async function stream(req: ValidRequest<typeof s.stream>, res: Response) {
  const q = req.valid.query;
  // Validated before the stream opens, so a bad cursor is still a 400 problem document.
  let after = await startPosition(req.ctx, req.header('last-event-id') ?? q.after);
  res
    .status(200)
    .set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  res.write(': connected\n\n');
  let closed = false;
  req.on('close', () => (closed = true));
  let lastBeat = Date.now();
  while (!closed) {
    const { events, next } = await readEvents(req.ctx, after, { types: q.types, limit: 100, wait: 1 }, () => closed);
    for (const e of events) {
      const dto = toEventDto(e);
      res.write(`id: ${dto.cursor}\nevent: ${dto.type}\ndata: ${JSON.stringify(dto)}\n\n`);
    }
    after = next;
    if (Date.now() - lastBeat > HEARTBEAT_MS) {
      res.write(': ping\n\n');
      lastBeat = Date.now();
    }
  }
  res.end();
}

export async function createWebhook(req: ValidRequest<typeof s.createWebhook>, res: Response) {
  const { subscription, secret } = await webhookService.create(req.ctx, req.valid.body);
  res.status(201).json({ ...toWebhookDto(subscription), secret });
}

export async function listWebhooks(req: ValidRequest<typeof s.listWebhooks>, res: Response) {
  res.json(mapPage(await webhookService.list(req.ctx, req.valid.query), toWebhookDto));
}

export async function deleteWebhook(req: ValidRequest<typeof s.webhookId>, res: Response) {
  await webhookService.remove(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function deliveries(req: ValidRequest<typeof s.deliveries>, res: Response) {
  res.json(mapPage(await webhookService.deliveries(req.ctx, req.valid.params.id, req.valid.query), toDeliveryDto));
}
