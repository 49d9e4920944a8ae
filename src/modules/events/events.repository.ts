import { Brackets, EntityManager } from 'typeorm';
import { OutboxEvent } from '../../core/outbox/outbox-event.entity';

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
