import { encodeId, encodeOptionalId, RESOURCE_TYPES, ResourceType } from '../../core/hashids';
import type { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import type { WebhookDelivery } from './entities/webhook-delivery.entity';
import type { WebhookSubscription } from './entities/webhook-subscription.entity';
import { encodeCursor } from './event-cursor';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

const isResourceType = (t: string): t is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(t);

/**
 * The event document of SPEC §10 (also the webhook body and the SSE data). `id` is the event's
 * identity (dedupe by it); `resource` + `sequence` order the events of one resource (1, 2, 3 … in
 * the order its changes committed); `cursor` resumes `GET /events` / the stream right after it.
 */
export const toEventDto = (e: OutboxEvent) => ({
  id: encodeId('event', e.id),
  type: e.type,
  companyId: encodeId('company', e.companyId),
  filialId: encodeOptionalId('filial', e.filialId),
  occurredAt: iso(e.occurredAt),
  resource: { type: e.aggregateType, id: isResourceType(e.aggregateType) ? encodeId(e.aggregateType, e.aggregateId) : null },
  sequence: e.resourceSeq,
  cursor: e.position === null ? null : encodeCursor(e.companyId, e.position),
  data: e.data,
});

/** A page of `GET /events`: `nextCursor` continues after the last event (or after what was scanned). */
export const toEventList = (companyId: number, page: { events: OutboxEvent[]; next: number }) => ({
  data: page.events.map(toEventDto),
  nextCursor: encodeCursor(companyId, page.next),
});

export const toWebhookDto = (s: WebhookSubscription) => ({
  id: encodeId('webhook', s.id),
  url: s.url,
  types: s.types,
  description: s.description,
  active: s.active,
  createdAt: iso(s.createdAt),
});

export const toDeliveryDto = (d: WebhookDelivery) => ({
  eventId: encodeId('event', d.eventId),
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'PENDING' ? iso(d.nextAttemptAt) : null,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  deliveredAt: iso(d.deliveredAt),
  createdAt: iso(d.createdAt),
});
