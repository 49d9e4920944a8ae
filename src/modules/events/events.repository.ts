import { Brackets, EntityManager } from 'typeorm';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';
import { parseSqlTime } from '../../core/db/sql-time';

export interface EventFilter {
  companyId: number;
  /** Positions after this one … */
  after: number;
  /** … up to this one (a stream head read before the query); omitted → as far as positioned. */
  upTo?: number;
  types?: string[];
  /** Filial ids the reader may see ('*' → all); events without a filial are company-wide. */
  filiais: number[] | '*';
  limit: number;
}

/** Positioned events of one company in a position range, in stream order (index (company_id, [type,] stream_position)). */
export function eventsInRange(em: EntityManager, f: EventFilter): Promise<OutboxEvent[]> {
  const qb = em
    .createQueryBuilder(OutboxEvent, 'e')
    .where('e.company_id = :companyId AND e.stream_position > :after', { companyId: f.companyId, after: f.after })
    .orderBy('e.stream_position', 'ASC')
    .limit(f.limit);
  if (f.upTo !== undefined) qb.andWhere('e.stream_position <= :upTo', { upTo: f.upTo });
  if (f.types?.length) qb.andWhere('e.type IN (:...types)', { types: f.types });
  if (f.filiais !== '*') {
    const filiais = f.filiais.length ? f.filiais : [0];
    qb.andWhere(new Brackets((w) => w.where('e.filial_id IS NULL').orWhere('e.filial_id IN (:...filiais)', { filiais })));
  }
  return qb.getMany();
}

/** The stream position of one of the company's events (undefined: no such event in the company; null: not positioned yet). */
export async function positionOfEvent(em: EntityManager, companyId: number, eventId: number): Promise<number | null | undefined> {
  const row = await em.findOne(OutboxEvent, { select: { id: true, position: true }, where: { id: eventId, companyId } });
  return row ? row.position : undefined;
}

/** Rows a backlog gauge counts at most: each scrape query stays bounded however large the backlog. */
export const BACKLOG_COUNT_CAP = 100_000;

export interface Backlog {
  count: number;
  /** Created (events) or due (deliveries) time of the oldest row counted; null when none. */
  oldest: Date | null;
}

const backlog = async (em: EntityManager, sql: string, params: unknown[]): Promise<Backlog> => {
  const [row] = (await em.query(`SELECT COUNT(*) AS n, MIN(t) AS oldest FROM (${sql} LIMIT ${BACKLOG_COUNT_CAP}) x`, params)) as {
    n: number | string;
    oldest: Date | string | null;
  }[];
  return { count: Number(row?.n ?? 0), oldest: parseSqlTime(row?.oldest) };
};

/**
 * Committed events of companies with an active webhook subscription that have no stream position
 * yet: the ones the webhook dispatcher relays in the background (readers relay their own company's
 * on each read). Index (company_id, stream_position) per company.
 */
export function unpositionedEventBacklog(em: EntityManager): Promise<Backlog> {
  return backlog(
    em,
    `SELECT e.created_at AS t FROM (SELECT DISTINCT s.company_id FROM webhook_subscription s WHERE s.active = 1) c
      JOIN outbox_event e ON e.company_id = c.company_id AND e.stream_position IS NULL`,
    [],
  );
}

/** Deliveries of active subscriptions in one status (index (subscription_id, status, next_attempt_at)). */
export function webhookDeliveryBacklog(em: EntityManager, status: 'PENDING' | 'FAILED'): Promise<Backlog> {
  return backlog(
    em,
    `SELECT d.next_attempt_at AS t FROM webhook_subscription s
      JOIN webhook_delivery d ON d.subscription_id = s.id AND d.status = ?
      WHERE s.active = 1`,
    [status],
  );
}
