import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import type { WebhookDelivery } from './entities/webhook-delivery.entity';
import type { WebhookSubscription } from './entities/webhook-subscription.entity';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** The event document of SPEC §10 (also the webhook body and the SSE data). */
export const toEventDto = (e: OutboxEvent) => ({
  id: encodeId('event', e.id),
  type: e.type,
  companyId: encodeId('company', e.companyId),
  filialId: encodeOptionalId('filial', e.filialId),
  occurredAt: iso(e.occurredAt),
  data: e.data,
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
