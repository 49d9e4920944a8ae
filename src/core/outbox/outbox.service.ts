import { EntityManager } from 'typeorm';
import type { ActorContext } from '../context';
import { deferInsertRows, TenantRow } from '../db/sql';
import { appendOnCommit } from '../db/transaction';
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
  // Written with the transaction's other events just before it commits, in the order published.
  await appendOnCommit(em, insertEvents, {
    companyId: ctx.companyId,
    filialId: event.filialId ?? null,
    type: event.type,
    aggregateType: event.aggregateType,
    aggregateId: event.aggregateId,
    data: event.data,
  });
}

async function insertEvents(em: EntityManager, rows: TenantRow<OutboxEvent>[]): Promise<void> {
  await deferInsertRows(em, OutboxEvent, rows);
}
