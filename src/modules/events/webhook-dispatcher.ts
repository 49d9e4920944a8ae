import crypto from 'node:crypto';
import { In } from 'typeorm';
import { config } from '../../core/config';
import { sqlTime } from '../../core/db/sql-time';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { Worker } from '../../core/worker';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import { relayOutbox } from '../../core/outbox/outbox-relay';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { toEventDto } from './events.mapper';
import { eventsInRange } from './events.repository';
import { signWebhook } from './webhook-signature';

export const MAX_ATTEMPTS = 8;
/** Events fanned out per subscription per step, and steps per tick. */
const FAN_OUT_BATCH = 200;
const FAN_OUT_STEPS = 10;
/** The lease must outlive an attempt by this much (final write, clock skew between replicas). */
const MIN_LEASE_MARGIN_MS = 500;
const UNKNOWN_OUTCOME = 'outcome unknown: the previous attempt did not finish within its lease';

/** base, 2×base, 4×base … capped at one hour (base: WEBHOOK_BACKOFF_BASE_MS, 10 s by default). */
export const backoffMs = (attempts: number, baseMs = config.webhooks.backoffBaseMs) =>
  Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempts - 1));

export interface DispatcherOptions {
  now?: () => Date;
  /** One attempt, response body included. */
  timeoutMs?: number;
  /** How long a claimed delivery stays ours; at least timeoutMs + 500 ms. */
  leaseMs?: number;
  backoffBaseMs?: number;
  /** Attempts under way at once per subscription (endpoint) in this process. */
  perEndpoint?: number;
  /** Attempts under way at once in this process. */
  maxInFlight?: number;
}

type Outcome = 'delivered' | 'retry' | 'failed' | 'lost';
type Subscription = WebhookSubscription & { secret: string };
interface Claimed {
  id: number;
  eventId: number;
  /** This attempt's number (counted when claimed). */
  attempts: number;
  /** The lease token the outcome is written under. */
  token: string;
}

/*
 * At-least-once webhook delivery from the outbox, safe with many replicas.
 * - Fan-out follows each subscription's position in its company's event stream (outbox-relay.ts), so
 *   an event that commits late is still fanned out; the position advances with a conditional update
 *   (one replica wins a batch) and the (subscription, event) pair is unique.
 * - An attempt claims its delivery just before sending, with a lease (`locked_until`, `lease_token`)
 *   longer than the HTTP timeout, so no other replica sends it while the attempt may still be
 *   waiting; the outcome is written only while the lease token is still ours. A delivery is sent
 *   again only after a failed attempt or one whose outcome is unknown (its lease expired: crash,
 *   stall), and every attempt counts in `attempts`.
 * - Each subscription gets at most `perEndpoint` attempts at once and refills its own slots as they
 *   finish, so a slow or dead endpoint holds only its own slots, never another's.
 */
export class WebhookDispatcher {
  private w: Worker | null = null;
  private active = false;
  private readonly now: () => Date;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly backoffBaseMs: number;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  /** Attempts under way (or slots reserved) per subscription, and in total. */
  private readonly busy = new Map<number, number>();
  private busyTotal = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly counts: Record<Outcome, number> = { delivered: 0, retry: 0, failed: 0, lost: 0 };
  /** Rotates the subscription the launch pass starts with, so the process-wide cap is shared fairly. */
  private startAt = 0;

  constructor(options: DispatcherOptions = {}) {
    const c = config.webhooks;
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? c.timeoutMs;
    this.leaseMs = options.leaseMs ?? Math.max(c.leaseMs, this.timeoutMs + MIN_LEASE_MARGIN_MS);
    this.backoffBaseMs = options.backoffBaseMs ?? c.backoffBaseMs;
    this.perEndpoint = options.perEndpoint ?? c.perEndpoint;
    this.maxInFlight = options.maxInFlight ?? c.maxInFlight;
    if (this.leaseMs < this.timeoutMs + MIN_LEASE_MARGIN_MS)
      throw new Error(`webhook lease (${this.leaseMs} ms) must outlive the timeout (${this.timeoutMs} ms) by ${MIN_LEASE_MARGIN_MS} ms`);
  }

  /** Dispatch on a timer (src/workers.ts); stopping it stops claiming and awaits the attempts under way. */
  worker(intervalMs = 1000): Worker {
    if (this.w && this.w.state !== 'stopped') return this.w;
    const w: Worker = new Worker({
      name: 'webhook-dispatch',
      intervalMs,
      // Claiming is on while the worker runs (until its stop aborts the signal).
      run: () => {
        if (!w.signal.aborted) this.active = true;
        return this.tick();
      },
      onStop: () => this.drain(),
    });
    w.signal.addEventListener('abort', () => (this.active = false));
    return (this.w = w);
  }

  start(intervalMs = 1000): void {
    this.active = true;
    this.worker(intervalMs).start();
  }

  /** Stops claiming; answers when the attempts under way have finished. */
  async stop(): Promise<void> {
    this.active = false;
    await this.w?.stop();
    await this.drain();
  }

  /** One pass that also waits for its attempts (and the ones they lead to) to finish: for tests and scripts. */
  async runOnce(): Promise<{ queued: number; delivered: number; failed: number }> {
    const before = { ...this.counts };
    const wasActive = this.active;
    this.active = true;
    try {
      let queued = 0;
      for (;;) {
        const pass = await this.tick();
        queued += pass.queued;
        await this.drain();
        if (!pass.started) break;
      }
      return { queued, delivered: this.counts.delivered - before.delivered, failed: this.counts.failed - before.failed };
    } finally {
      this.active = wasActive;
    }
  }

  /** Outcomes of this dispatcher's attempts so far. */
  stats(): Readonly<Record<Outcome, number>> {
    return { ...this.counts };
  }

  /** Fans out new events, then starts the due deliveries of every subscription that has free slots. */
  async tick(): Promise<{ queued: number; started: number }> {
    const subs = (await readerOf(NO_UNIT)
      .createQueryBuilder(WebhookSubscription, 's')
      .addSelect('s.secret')
      .where('s.active = :active', { active: true })
      .orderBy('s.id', 'ASC')
      .getMany()) as Subscription[];
    const queued = await this.fanOut(subs);
    let started = 0;
    if (subs.length) {
      const first = this.startAt++ % subs.length;
      for (const sub of [...subs.slice(first), ...subs.slice(0, first)]) started += await this.fill(sub);
    }
    return { queued, started };
  }

  private async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Turns new events of the subscriptions' streams into deliveries. */
  async fanOut(subs?: WebhookSubscription[]): Promise<number> {
    subs ??= await readerOf(NO_UNIT).find(WebhookSubscription, { where: { active: true }, order: { id: 'ASC' } });
    const relayed = new Set<number>();
    let queued = 0;
    for (const sub of subs) {
      if (!relayed.has(sub.companyId)) {
        await relayOutbox(sub.companyId);
        relayed.add(sub.companyId);
      }
      let from = sub.lastPosition;
      for (let step = 0; step < FAN_OUT_STEPS; step++) {
        const r = await this.fanOutStep(sub, from);
        queued += r.queued;
        if (r.to === undefined) break;
        from = r.to;
      }
    }
    return queued;
  }

  /** One batch of one subscription; `to` is the new position, undefined when there was nothing (or another replica won). */
  private fanOutStep(sub: WebhookSubscription, from: number): Promise<{ queued: number; to?: number }> {
    return inTransaction(NO_UNIT, async (em) => {
      const events = await eventsInRange(em, { companyId: sub.companyId, after: from, filiais: '*', limit: FAN_OUT_BATCH });
      if (!events.length) return { queued: 0 };
      const to = events[events.length - 1].position!;
      const advanced = await em
        .createQueryBuilder()
        .update(WebhookSubscription)
        .set({ lastPosition: to })
        .where('id = :id AND last_position = :from', { id: sub.id, from })
        .execute();
      if (!advanced.affected) return { queued: 0 }; // another replica took this batch
      const wanted = events.filter((e) => !sub.types.length || sub.types.includes(e.type));
      if (wanted.length) {
        await em
          .createQueryBuilder()
          .insert()
          .into(WebhookDelivery)
          .values(
            wanted.map((e) => ({
              companyId: sub.companyId,
              subscriptionId: sub.id,
              eventId: e.id,
              status: 'PENDING' as const,
              attempts: 0,
              nextAttemptAt: this.now(),
            })),
          )
          .orIgnore()
          .updateEntity(false)
          .execute();
      }
      return { queued: wanted.length, to: events.length === FAN_OUT_BATCH ? to : undefined };
    });
  }

  /** Claims as many due deliveries of the subscription as it has free slots, and starts them. */
  private async fill(sub: Subscription): Promise<number> {
    if (!this.active) return 0;
    const free = Math.min(this.perEndpoint - (this.busy.get(sub.id) ?? 0), this.maxInFlight - this.busyTotal);
    if (free <= 0) return 0;
    // Reserve the slots before the round trips, so concurrent fills never exceed the bounds.
    this.reserve(sub.id, free);
    let started = 0;
    try {
      const claimed = await this.claim(sub.id, free);
      if (!claimed.length) return 0;
      const events = await readerOf(NO_UNIT).findBy(OutboxEvent, { id: In(claimed.map((d) => d.eventId)) });
      const byId = new Map(events.map((e) => [e.id, e]));
      for (const d of claimed) {
        const event = byId.get(d.eventId);
        if (!event) continue;
        started++;
        const run: Promise<void> = this.attempt(sub, event, d)
          .catch((err) => void logger.error('webhook attempt failed', { err: (err as Error).message }))
          .finally(() => {
            this.reserve(sub.id, -1);
            this.running.delete(run);
          })
          .then(async () => {
            await this.fill(sub); // refill this endpoint's slot at once
          })
          .catch((err) => void logger.error('webhook dispatch failed', { err: (err as Error).message }));
        this.running.add(run);
      }
      return started;
    } finally {
      this.reserve(sub.id, -(free - started));
    }
  }

  private reserve(subscriptionId: number, n: number): void {
    this.busy.set(subscriptionId, (this.busy.get(subscriptionId) ?? 0) + n);
    this.busyTotal += n;
  }

  /**
   * Takes up to `limit` due deliveries of the subscription under a fresh lease. Rows whose previous
   * lease expired without an outcome are taken too (noted in `last_error`); rows that already had
   * every attempt are closed as FAILED instead.
   */
  private async claim(subscriptionId: number, limit: number): Promise<Claimed[]> {
    const now = this.now();
    // More candidates than slots: another replica may take some of the first ones meanwhile.
    const due = await readerOf(NO_UNIT)
      .createQueryBuilder(WebhookDelivery, 'd')
      .select(['d.id', 'd.attempts'])
      .where("d.subscription_id = :subscriptionId AND d.status = 'PENDING' AND d.next_attempt_at <= :now", {
        subscriptionId,
        now: sqlTime(now),
      })
      .andWhere('(d.locked_until IS NULL OR d.locked_until < :now)', { now: sqlTime(now) })
      .orderBy('d.next_attempt_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(limit * 3)
      .getMany();
    if (!due.length) return [];
    const exhausted = due.filter((d) => d.attempts >= MAX_ATTEMPTS).map((d) => d.id);
    const candidates = due.filter((d) => d.attempts < MAX_ATTEMPTS).map((d) => d.id);
    const claimable = "status = 'PENDING' AND (locked_until IS NULL OR locked_until < :now)";
    const token = crypto.randomBytes(12).toString('hex');
    const claimed = await inTransaction(NO_UNIT, async (em) => {
      if (exhausted.length) {
        await em
          .createQueryBuilder()
          .update(WebhookDelivery)
          .set({ status: 'FAILED', lockedUntil: null, leaseToken: null, lastError: UNKNOWN_OUTCOME })
          .where(`id IN (:...exhausted) AND ${claimable}`, { exhausted, now: sqlTime(now) })
          .execute();
      }
      let taken = 0;
      let next = 0;
      while (taken < limit && next < candidates.length) {
        const ids = candidates.slice(next, next + limit - taken);
        next += ids.length;
        const res = await em
          .createQueryBuilder()
          .update(WebhookDelivery)
          .set({
            lockedUntil: new Date(now.getTime() + this.leaseMs),
            leaseToken: token,
            attempts: () => 'attempts + 1',
            lastError: () => 'CASE WHEN lease_token IS NULL THEN last_error ELSE :unknown END',
          })
          .where(`id IN (:...ids) AND ${claimable}`, { ids, now: sqlTime(now), unknown: UNKNOWN_OUTCOME })
          .execute();
        taken += res.affected ?? 0;
      }
      if (!taken) return [];
      return em
        .createQueryBuilder(WebhookDelivery, 'd')
        .select(['d.id', 'd.eventId', 'd.attempts'])
        .where('d.id IN (:...ids) AND d.lease_token = :token', { ids: candidates.slice(0, next), token })
        .getMany();
    });
    // In the order they were due.
    const order = new Map(candidates.map((id, i) => [id, i]));
    return claimed
      .map((d) => ({ id: d.id, eventId: d.eventId, attempts: d.attempts, token }))
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /** Sends one claimed delivery and writes its outcome, if the lease is still ours. */
  private async attempt(sub: Subscription, event: OutboxEvent, d: Claimed): Promise<void> {
    const outcome = await this.send(sub, event);
    const now = this.now();
    const gaveUp = !outcome.ok && d.attempts >= MAX_ATTEMPTS;
    const values: Partial<WebhookDelivery> = outcome.ok
      ? { status: 'DELIVERED', lastStatusCode: outcome.status, lastError: null, deliveredAt: now }
      : {
          status: gaveUp ? 'FAILED' : 'PENDING',
          lastStatusCode: outcome.status ?? null,
          lastError: outcome.error?.slice(0, 300) ?? null,
          nextAttemptAt: new Date(now.getTime() + backoffMs(d.attempts, this.backoffBaseMs)),
        };
    const written = await inTransaction(NO_UNIT, (em) =>
      em
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({ ...values, lockedUntil: null, leaseToken: null })
        .where('id = :id AND lease_token = :token', { id: d.id, token: d.token })
        .execute(),
    );
    let result: Outcome = outcome.ok ? 'delivered' : gaveUp ? 'failed' : 'retry';
    if (!written.affected) {
      // The lease ran out (or the subscription was removed): the row is no longer ours to write.
      result = 'lost';
      logger.warn('webhook outcome not recorded: lease lost', { delivery: d.id, outcome: outcome.ok ? 'delivered' : outcome.error });
    }
    this.counts[result]++;
  }

  private async send(sub: Subscription, event: OutboxEvent): Promise<{ ok: boolean; status?: number; error?: string }> {
    const dto = toEventDto(event);
    const body = JSON.stringify(dto);
    const timestamp = Math.floor(this.now().getTime() / 1000);
    try {
      const res = await fetch(sub.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Webhook-Id': dto.id,
          'Webhook-Timestamp': String(timestamp),
          'Webhook-Signature': signWebhook(sub.secret, timestamp, body),
          'User-Agent': 'retail-backoffice-webhooks',
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300
        ? { ok: true, status: res.status }
        : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }
}
