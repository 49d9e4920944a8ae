import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { isMysql } from '../db/engine';
import { ALLOCATED_ID_TABLES } from '../db/sql';
import { maxIdOnSequencePool, takeValuesAbove } from './sequence.service';

/*
 * Row ids taken before the INSERT, for the tables of the hot transactions (docs/decisions/ids-before-insert.md):
 * a row whose id is known before it is written can be inserted as a deferred write, and the rows that
 * point at it (lines, ledger movements, receivables, audit rows, outbox payloads with its hashid) can be
 * built at once, so the quick sale is one round trip of reads and one of writes with the COMMIT.
 *
 * MySQL: hi-lo. Each process takes blocks of BLOCK ids from the `sequence` table (company 0, name
 * `id:<table>`; one autocommitted statement on the sequence pool, callers that wait for the same
 * table share it) and hands them out from memory. Each block starts above the table's MAX(id) as this
 * process first read it, so rows written before (a restore, a bulk load) are stepped over. Ids are unique and
 * increasing within a process; between replicas they interleave by block, and a restart leaves the rest
 * of a block unused (a gap, as a rolled-back AUTO_INCREMENT leaves).
 * SQLite (one process, transactions serialized): the next id is max(MAX(id) + 1, the last handed out + 1),
 * read in the caller's transaction.
 *
 * Every INSERT into these tables takes its ids here (insertStatement refuses a row without one): an
 * AUTO_INCREMENT insert beside explicit ids would take an id of a block handed out already.
 */

const BLOCK = 200;

interface Block {
  next: number;
  /** Exclusive. */
  end: number;
}
const blocks = new Map<string, Block>();
const refills = new Map<string, Promise<void>>();
const seeds = new Map<string, Promise<number>>();
/** SQLite: the last id handed out per table. */
const handedOut = new Map<string, number>();

const counterName = (table: string) => `id:${table}`;

function tableOf(em: EntityManager, target: EntityTarget<ObjectLiteral>): string {
  const table = em.connection.getMetadata(target).tableName;
  if (!ALLOCATED_ID_TABLES.has(table)) throw new Error(`${table}: ids are not allocated before the INSERT (ALLOCATED_ID_TABLES)`);
  return table;
}

async function maxId(em: EntityManager, table: string): Promise<number> {
  const [row] = (await em.query(`SELECT COALESCE(MAX(id), 0) AS m FROM ${em.connection.driver.escape(table)}`)) as { m: number | string }[];
  return Number(row.m);
}

/** `count` ids for new rows of `target`'s table, in increasing order. `em`: the caller's manager. */
export async function allocateIds(em: EntityManager, target: EntityTarget<ObjectLiteral>, count: number): Promise<number[]> {
  const table = tableOf(em, target);
  if (count <= 0) return [];
  let first: number;
  if (!isMysql) {
    first = Math.max((await maxId(em, table)) + 1, (handedOut.get(table) ?? 0) + 1);
    handedOut.set(table, first + count - 1);
  } else {
    first = await fromBlock(table, count);
  }
  return Array.from({ length: count }, (_v, i) => first + i);
}

/** One id (allocateIds of one). */
export const allocateId = async (em: EntityManager, target: EntityTarget<ObjectLiteral>): Promise<number> =>
  (await allocateIds(em, target, 1))[0];

async function fromBlock(table: string, count: number): Promise<number> {
  for (;;) {
    const block = blocks.get(table);
    if (block && block.end - block.next >= count) {
      const first = block.next;
      block.next += count;
      return first;
    }
    let refill = refills.get(table);
    if (!refill) {
      const size = Math.max(BLOCK, count);
      refill = seeded(table)
        // Never below what this process handed out already (a counter lost with a recreated schema).
        .then((max) => takeValuesAbove(0, counterName(table), Math.max(max, (blocks.get(table)?.end ?? 1) - 1), size))
        .then((last) => void blocks.set(table, { next: last - size + 1, end: last + 1 }))
        .finally(() => refills.delete(table));
      refills.set(table, refill);
    }
    await refill;
  }
}

/** The table's MAX(id) when this process first allocated for it (a plain read on the sequence pool, no lock). */
function seeded(table: string): Promise<number> {
  let seed = seeds.get(table);
  if (!seed) {
    seed = maxIdOnSequencePool(table);
    seed.catch(() => seeds.delete(table));
    seeds.set(table, seed);
  }
  return seed;
}

/** Forgets the blocks and seeds of this process (tests that recreate the schema). */
export function resetIdBlocks(): void {
  blocks.clear();
  refills.clear();
  seeds.clear();
  handedOut.clear();
}
