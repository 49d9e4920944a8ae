import { Brackets, EntityManager } from 'typeorm';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';

export interface EventFilter {
  companyId: number;
  afterId: number;
  types?: string[];
  /** Filial ids the reader may see ('*' → all); events without a filial are company-wide. */
  filiais: number[] | '*';
  limit: number;
}

/** Events of one company after a cursor, oldest first (index (company_id, id) / (company_id, type, id)). */
export function eventsAfter(em: EntityManager, f: EventFilter): Promise<OutboxEvent[]> {
  const qb = em
    .createQueryBuilder(OutboxEvent, 'e')
    .where('e.company_id = :companyId AND e.id > :afterId', { companyId: f.companyId, afterId: f.afterId })
    .orderBy('e.id', 'ASC')
    .limit(f.limit);
  if (f.types?.length) qb.andWhere('e.type IN (:...types)', { types: f.types });
  if (f.filiais !== '*') {
    const filiais = f.filiais.length ? f.filiais : [0];
    qb.andWhere(new Brackets((w) => w.where('e.filial_id IS NULL').orWhere('e.filial_id IN (:...filiais)', { filiais })));
  }
  return qb.getMany();
}

export async function lastEventId(em: EntityManager): Promise<number> {
  const row = await em.createQueryBuilder(OutboxEvent, 'e').select('MAX(e.id)', 'max').getRawOne<{ max: number | string | null }>();
  return Number(row?.max ?? 0);
}
