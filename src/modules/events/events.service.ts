import type { TenantContext } from '../../core/context';
import { dataSource } from '../../core/db/data-source';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import { eventsAfter } from './events.repository';

const POLL_MS = 250;

export interface EventQuery {
  after: number;
  types?: string[];
  limit: number;
  /** Long-poll: seconds to wait for the first event when there is none yet. */
  wait: number;
}

/** The tenant's events after a cursor; waits up to `wait` seconds when there are none yet. */
export async function readEvents(ctx: TenantContext, q: EventQuery, isClosed: () => boolean = () => false): Promise<OutboxEvent[]> {
  const deadline = Date.now() + q.wait * 1000;
  for (;;) {
    const events = await eventsAfter(dataSource.manager, { companyId: ctx.companyId, afterId: q.after, types: q.types, filiais: ctx.grantedFiliais, limit: q.limit });
    if (events.length || Date.now() >= deadline || isClosed()) return events;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
