import { EntityManager } from 'typeorm';
import type { ActorContext } from '../context';
import { OutboxEvent } from './outbox-event.entity';

export interface DomainEvent {
  type: string;
  filialId?: number | null;
  aggregateType: string;
  aggregateId: number;
  /** Public payload: hashids only, never internal ids. */
  data: Record<string, unknown>;
}

export async function publishEvent(em: EntityManager, ctx: ActorContext, event: DomainEvent): Promise<void> {
  // updateEntity(false): one statement, no re-select of the generated columns.
  await em.createQueryBuilder().insert().into(OutboxEvent).values({
    companyId: ctx.companyId,
    filialId: event.filialId ?? null,
    type: event.type,
    aggregateType: event.aggregateType,
    aggregateId: event.aggregateId,
    data: event.data as never,
  }).updateEntity(false).execute();
}
