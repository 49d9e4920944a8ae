import { EntityManager, In } from 'typeorm';
import { dataSource } from '../../core/db/data-source';
import { sqlTime } from '../../core/db/sql-time';
import { inTransaction } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { toEventDto } from './events.mapper';
import { eventsAfter } from './events.repository';
import { signWebhook } from './webhook-signature';

export const MAX_ATTEMPTS = 8;
const BATCH = 200;
const LOCK_MS = 60_000;

/** 10 s, 20 s, 40 s … capped at one hour. */
export const backoffMs = (attempts: number) => Math.min(3_600_000, 10_000 * 2 ** Math.max(0, attempts - 1));

export interface DispatcherOptions {
  now?: () => Date;
  timeoutMs?: number;
}

/*
 * At-least-once webhook delivery from the outbox, safe with many replicas: fan-out advances each
 * subscription's cursor with a conditional update (one replica wins a batch), deliveries are claimed
 * with a lease (`locked_until`) before sending, and the (subscription, event) pair is unique.
 */
export class WebhookDispatcher {
  private timer?: NodeJS.Timeout;
  private running = false;
  private readonly now: () => Date;
  private readonly timeoutMs: number;

  constructor(options: DispatcherOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.runOnce()
        .catch((err) => logger.error('webhook dispatch failed', { err: (err as Error).message }))
        .finally(() => (this.running = false));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async runOnce(): Promise<{ queued: number; delivered: number; failed: number }> {
    const queued = await this.fanOut();
    const { delivered, failed } = await this.deliverDue();
    return { queued, delivered, failed };
  }

  /** Turns new outbox events into deliveries for each active subscription. */
  async fanOut(): Promise<number> {
    let queued = 0;
    const subscriptions = await dataSource.manager.find(WebhookSubscription, { where: { active: true }, order: { id: 'ASC' } });
    for (const sub of subscriptions) {
      queued += await inTransaction(async (em) => {
        const events = await eventsAfter(em, { companyId: sub.companyId, afterId: sub.lastEventId, filiais: '*', limit: BATCH });
        if (!events.length) return 0;
        const advanced = await em
          .createQueryBuilder()
          .update(WebhookSubscription)
          .set({ lastEventId: events[events.length - 1].id })
          .where('id = :id AND last_event_id = :from', { id: sub.id, from: sub.lastEventId })
          .execute();
        if (!advanced.affected) return 0; // another replica took this batch
        const wanted = events.filter((e) => !sub.types.length || sub.types.includes(e.type));
        if (wanted.length) {
          await em
            .createQueryBuilder()
            .insert()
            .into(WebhookDelivery)
            .values(wanted.map((e) => ({ companyId: sub.companyId, subscriptionId: sub.id, eventId: e.id, status: 'PENDING' as const, attempts: 0, nextAttemptAt: this.now() })))
            .orIgnore()
            .updateEntity(false)
            .execute();
        }
        return wanted.length;
      });
    }
    return queued;
  }

  private async claim(em: EntityManager, ids: number[]): Promise<number[]> {
    const claimed: number[] = [];
    const now = this.now();
    for (const id of ids) {
      const res = await em
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({ lockedUntil: new Date(now.getTime() + LOCK_MS) })
        .where("id = :id AND status = 'PENDING' AND (locked_until IS NULL OR locked_until < :now)", { id, now: sqlTime(now) })
        .execute();
      if (res.affected) claimed.push(id);
    }
    return claimed;
  }

  /** Sends every due delivery once; failures are rescheduled with back-off, then marked FAILED. */
  async deliverDue(): Promise<{ delivered: number; failed: number }> {
    const now = this.now();
    const due = await dataSource.manager
      .createQueryBuilder(WebhookDelivery, 'd')
      .where("d.status = 'PENDING' AND d.next_attempt_at <= :now", { now: sqlTime(now) })
      .andWhere('(d.locked_until IS NULL OR d.locked_until < :now)', { now: sqlTime(now) })
      .orderBy('d.id', 'ASC')
      .limit(BATCH)
      .getMany();
    if (!due.length) return { delivered: 0, failed: 0 };
    const claimedIds = await inTransaction((em) => this.claim(em, due.map((d) => d.id)));
    const deliveries = due.filter((d) => claimedIds.includes(d.id));
    const subs = await dataSource.manager
      .createQueryBuilder(WebhookSubscription, 's')
      .addSelect('s.secret')
      .where('s.id IN (:...ids)', { ids: [...new Set(deliveries.map((d) => d.subscriptionId))].concat(0) })
      .getMany();
    const events = await dataSource.manager.findBy(OutboxEvent, { id: In(deliveries.map((d) => d.eventId).concat(0)) });
    const subById = new Map(subs.map((s) => [s.id, s]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    let delivered = 0;
    let failed = 0;
    for (const d of deliveries) {
      const sub = subById.get(d.subscriptionId);
      const event = eventById.get(d.eventId);
      if (!sub || !event) continue;
      const outcome = await this.send(sub, event);
      const attempts = d.attempts + 1;
      if (outcome.ok) {
        delivered++;
        // Every write goes through inTransaction (on SQLite it must not slip into another unit of work).
        await inTransaction((em) => em.update(WebhookDelivery, { id: d.id }, { status: 'DELIVERED', attempts, lastStatusCode: outcome.status, lastError: null, deliveredAt: this.now(), lockedUntil: null }));
      } else {
        const gaveUp = attempts >= MAX_ATTEMPTS;
        if (gaveUp) failed++;
        await inTransaction((em) => em.update(WebhookDelivery, { id: d.id }, {
          status: gaveUp ? 'FAILED' : 'PENDING',
          attempts,
          lastStatusCode: outcome.status ?? null,
          lastError: outcome.error?.slice(0, 300) ?? null,
          nextAttemptAt: new Date(this.now().getTime() + backoffMs(attempts)),
          lockedUntil: null,
        }));
      }
    }
    return { delivered, failed };
  }

  private async send(sub: WebhookSubscription, event: OutboxEvent): Promise<{ ok: boolean; status?: number; error?: string }> {
    const body = JSON.stringify(toEventDto(event));
    const timestamp = Math.floor(this.now().getTime() / 1000);
    try {
      const res = await fetch(sub.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Webhook-Id': toEventDto(event).id,
          'Webhook-Timestamp': String(timestamp),
          'Webhook-Signature': signWebhook(sub.secret, timestamp, body),
          'User-Agent': 'retail-backoffice-webhooks',
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status } : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }
}
