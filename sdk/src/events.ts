import { CallOptions, HttpClient, seg } from './http';
import type { Page } from './types';

/** A domain event (SPEC §10): the body of `GET /events`, of the SSE stream and of webhooks. */
export interface DomainEvent<T = Record<string, unknown>> {
  /** The event's identity: dedupe by it (webhooks are at-least-once). */
  id: string;
  type: string;
  companyId: string;
  filialId: string | null;
  occurredAt: string;
  /** The resource the event is about (`id` is null for resources without a public id). */
  resource: { type: string; id: string | null };
  /** 1, 2, 3 … per resource, in the order its changes committed: orders webhooks that arrive out of order. */
  sequence: number;
  /** Resumes `list`/`subscribe` right after this event (store it once the event is handled). */
  cursor: string;
  data: T;
}

export interface EventsQuery {
  /** A `nextCursor` or an event's `cursor` (an event id is still accepted); `'0'` → from the first event; omitted → from now. */
  after?: string;
  types?: string[];
  limit?: number;
  /** Long-poll: seconds to wait for the first event (0–30). */
  wait?: number;
}

export interface Webhook {
  id: string;
  url: string;
  types: string[];
  description: string | null;
  active: boolean;
  createdAt: string;
}

export interface WebhookDelivery {
  eventId: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** `/api/events` and `/api/webhooks`. */
export class Events {
  constructor(private readonly http: HttpClient) {}

  /** GET /events: the events after a cursor; `nextCursor` continues after them. */
  list(query: EventsQuery = {}, options?: CallOptions): Promise<{ data: DomainEvent[]; nextCursor: string }> {
    const { types, ...rest } = query;
    return this.http.request({ method: 'GET', path: '/events', query: { ...rest, types: types?.join(',') }, options });
  }

  /**
   * Every event after `after` (from now without it; `'0'` for the whole history), as they happen:
   * long-polls `GET /events` and yields each committed event once, in stream order. Persist
   * `event.cursor` to resume later. Stop it with `options.signal` (or by leaving the `for await`).
   */
  async *subscribe(query: Omit<EventsQuery, 'limit'> = {}, options?: CallOptions): AsyncGenerator<DomainEvent> {
    let after = query.after;
    const wait = query.wait ?? 25;
    while (!options?.signal?.aborted) {
      const page = await this.list({ ...query, after, wait, limit: 100 }, options);
      for (const event of page.data) yield event;
      after = page.nextCursor;
    }
  }

  /** POST /webhooks: the answer carries the signing secret, shown this once. */
  createWebhook(body: { url: string; types?: string[]; description?: string | null }, options?: CallOptions): Promise<Webhook & { secret: string }> {
    return this.http.request({ method: 'POST', path: '/webhooks', body, idempotent: true, options });
  }

  /** GET /webhooks: active subscriptions, a page at a time like every list. */
  listWebhooks(query: { page?: number; pageSize?: number; cursor?: string } = {}, options?: CallOptions): Promise<Page<Webhook>> {
    return this.http.request({ method: 'GET', path: '/webhooks', query, options });
  }

  deleteWebhook(id: string, options?: CallOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: `/webhooks/${seg(id)}`, options });
  }

  deliveries(id: string, query: { page?: number; pageSize?: number; cursor?: string } = {}, options?: CallOptions): Promise<Page<WebhookDelivery>> {
    return this.http.request({ method: 'GET', path: `/webhooks/${seg(id)}/deliveries`, query, options });
  }
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Checks a webhook request: `Webhook-Signature` must be `v1=` + HMAC-SHA256(secret,
 * `${Webhook-Timestamp}.${raw body}`), and the timestamp within `toleranceSeconds` of now (replays).
 * Pass the raw body exactly as received. Receivers should also dedupe by `Webhook-Id`.
 */
export async function verifyWebhookSignature(
  secret: string,
  request: { body: string; timestamp: string | number; signature: string },
  toleranceSeconds = 300,
  now = Date.now(),
): Promise<boolean> {
  const timestamp = Number(request.timestamp);
  if (!Number.isFinite(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = `v1=${hex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${request.body}`)))}`;
  // Constant-time comparison.
  if (expected.length !== request.signature.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ request.signature.charCodeAt(i);
  return diff === 0;
}
