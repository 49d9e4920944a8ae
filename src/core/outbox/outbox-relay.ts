import { EntityManager, In } from 'typeorm';
import { isMysql } from '../db/engine';
import { inTransaction, NO_UNIT, readerOf, UnitScope } from '../db/transaction';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxStream } from './outbox-stream.entity';

/*
 * The outbox relay: gives committed events their place in their company's stream.
 *
 * Event ids are taken at insert and become visible at commit, so ids are not in commit order and a
 * reader that pages by id can pass an event that commits a moment later. Instead, one relay step at
 * a time per company (the company's `outbox_stream` row `*`, locked FOR UPDATE, is the single-writer
 * lock) reads the events that are committed but have no position yet, in id order, and numbers them
 * after the last position handed out, in the same transaction that advances that row. A relay step
 * commits before the next one can read the row, so positions become visible as a dense prefix
 * (1 … head): a reader that has seen position P has seen everything up to P, and whatever commits
 * later gets a position after P. It does not matter when (or in which statement) a writer's outbox
 * INSERT went out; only its commit counts.
 *
 * Whoever needs the stream current runs it (readers before each read, the webhook fan-out): no
 * background job, any number of replicas. On SQLite transactions are already serialized. On a
 * certification-based cluster (Galera) the FOR UPDATE is local, but two relays writing the same
 * `*` row conflict at commit and the loser is retried by inTransaction; the unique
 * (company_id, stream_position) index backs that up.
 */

export const COMPANY_STREAM = '*';
const BATCH = 500;
/** Steps per call: a reader should not relay a whole backlog before answering. */
const MAX_STEPS = 20;

const resourceStream = (e: Pick<OutboxEvent, 'aggregateType' | 'aggregateId'>) => `${e.aggregateType}:${e.aggregateId}`;

/**
 * Positions the company's committed events that have none yet; answers how many it positioned. Inside a
 * unit of work (`scope` carrying one: an idempotent route's) the steps run in that transaction, which
 * then holds the stream row until it commits; a new transaction beside an open one is never opened.
 */
export async function relayOutbox(companyId: number, scope: UnitScope = NO_UNIT): Promise<number> {
  let total = 0;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (!(await hasUnpositioned(companyId, scope))) break;
    const n = await inTransaction(scope, (em) => relayStep(em, companyId));
    total += n;
    if (n < BATCH) break;
  }
  return total;
}

async function hasUnpositioned(companyId: number, scope: UnitScope): Promise<boolean> {
  const rows: unknown[] = await readerOf(scope).query(
    'SELECT id FROM outbox_event WHERE company_id = ? AND stream_position IS NULL LIMIT 1',
    [companyId],
  );
  return rows.length > 0;
}

/** The last position handed out in the company's stream (0 when none). Everything up to it is visible. */
export async function streamHead(em: EntityManager, companyId: number): Promise<number> {
  const row = await em.findOne(OutboxStream, { where: { companyId, stream: COMPANY_STREAM } });
  return row?.lastValue ?? 0;
}

async function lockHead(em: EntityManager, companyId: number): Promise<number | undefined> {
  const qb = em
    .createQueryBuilder(OutboxStream, 's')
    .where('s.company_id = :companyId AND s.stream = :stream', { companyId, stream: COMPANY_STREAM });
  if (isMysql) qb.setLock('pessimistic_write');
  return (await qb.getOne())?.lastValue;
}

async function relayStep(em: EntityManager, companyId: number): Promise<number> {
  let head = await lockHead(em, companyId);
  if (head === undefined) {
    await em
      .createQueryBuilder()
      .insert()
      .into(OutboxStream)
      .values({ companyId, stream: COMPANY_STREAM, lastValue: 0 })
      .orIgnore()
      .updateEntity(false)
      .execute();
    head = (await lockHead(em, companyId)) ?? 0;
  }
  // Under the lock, READ COMMITTED: exactly the events committed so far that no step has positioned.
  const events = await em
    .createQueryBuilder(OutboxEvent, 'e')
    .select(['e.id', 'e.aggregateType', 'e.aggregateId'])
    .where('e.company_id = :companyId AND e.stream_position IS NULL', { companyId })
    .orderBy('e.id', 'ASC')
    .limit(BATCH)
    .getMany();
  if (!events.length) return 0;

  const keys = [...new Set(events.map(resourceStream))];
  const last = new Map<string, number>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await em.find(OutboxStream, { where: { companyId, stream: In(keys.slice(i, i + 500)) } });
    for (const r of rows) last.set(r.stream, r.lastValue);
  }
  const positionParams: number[] = [];
  const seqParams: number[] = [];
  events.forEach((e, i) => {
    const key = resourceStream(e);
    const seq = (last.get(key) ?? 0) + 1;
    last.set(key, seq);
    positionParams.push(e.id, head + i + 1);
    seqParams.push(e.id, seq);
  });
  const whens = events.map(() => 'WHEN ? THEN ?').join(' ');
  const ids = events.map((e) => e.id);
  const result = await em.queryRunner!.query(
    `UPDATE outbox_event SET stream_position = CASE id ${whens} END, resource_seq = CASE id ${whens} END ` +
      `WHERE id IN (${ids.map(() => '?').join(', ')}) AND stream_position IS NULL`,
    [...positionParams, ...seqParams, ...ids],
    true,
  );
  // Nothing else positions this company's events while the lock is held.
  if (result.affected !== undefined && result.affected !== events.length)
    throw new Error('outbox relay: events positioned outside the relay lock');

  const streams = [
    { companyId, stream: COMPANY_STREAM, lastValue: head + events.length },
    ...keys.map((stream) => ({ companyId, stream, lastValue: last.get(stream)! })),
  ];
  await em
    .createQueryBuilder()
    .insert()
    .into(OutboxStream)
    .values(streams)
    .orUpdate(['last_value'], ['company_id', 'stream'])
    .updateEntity(false)
    .execute();
  return events.length;
}
