import { readerOf } from '../../core/db/transaction';
import type { ActorContext, TenantContext } from '../../core/context';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import { relayOutbox, streamHead } from '../../core/outbox/outbox-relay';
import { invalidCursor, parseCursor } from './event-cursor';
import { eventsInRange, positionOfEvent } from './events.repository';

const POLL_MS = 250;

export interface EventQuery {
  types?: string[];
  limit: number;
  /** Long-poll: seconds to wait for the first event when there is none yet. */
  wait: number;
}

/** The company's stream brought up to date (every committed event positioned) and its head. */
export async function currentHead(ctx: ActorContext): Promise<number> {
  // In the caller's unit when it has one (POST /webhooks with its Idempotency-Key: the key and the subscription commit together).
  await relayOutbox(ctx.companyId, ctx);
  return streamHead(readerOf(ctx), ctx.companyId);
}

/**
 * Where a reader starts: after the cursor it sent, or — without one — at the stream's head ("from
 * now"; `after=0` asks for the whole history). A malformed cursor or one of another tenant → 400.
 */
export async function startPosition(ctx: TenantContext, cursor: string | undefined): Promise<number> {
  if (cursor === undefined) return currentHead(ctx);
  const parsed = parseCursor(ctx.companyId, cursor);
  if (parsed.kind === 'position') return parsed.position;
  // An event id (the first API's cursor): resume at that event's position.
  await relayOutbox(ctx.companyId);
  const position = await positionOfEvent(readerOf(ctx), ctx.companyId, parsed.eventId);
  if (position === undefined) throw invalidCursor(); // not an event of this tenant
  return position ?? streamHead(readerOf(ctx), ctx.companyId);
}

/**
 * The tenant's events after a position, in stream order, and the position to continue from; waits
 * up to `wait` seconds when there are none yet. Events the filters leave out still move the
 * position on, so a narrow reader does not scan them again.
 */
export async function readEvents(
  ctx: TenantContext,
  after: number,
  q: EventQuery,
  isClosed: () => boolean = () => false,
): Promise<{ events: OutboxEvent[]; next: number }> {
  const deadline = Date.now() + q.wait * 1000;
  let from = after;
  for (;;) {
    const head = await currentHead(ctx);
    if (head > from) {
      const events = await eventsInRange(readerOf(ctx), {
        companyId: ctx.companyId,
        after: from,
        upTo: head,
        types: q.types,
        filiais: ctx.grantedFiliais,
        limit: q.limit,
      });
      if (events.length) return { events, next: events.length === q.limit ? events[events.length - 1].position! : head };
      from = head;
    }
    if (Date.now() >= deadline || isClosed()) return { events: [], next: from };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** `GET /events`: the events after the client's cursor (from now without one). */
export async function listEvents(
  ctx: TenantContext,
  cursor: string | undefined,
  q: EventQuery,
  isClosed?: () => boolean,
): Promise<{ events: OutboxEvent[]; next: number }> {
  return readEvents(ctx, await startPosition(ctx, cursor), q, isClosed);
}
