import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Statement } from './batching-query-runner';
import { hydrate } from './sql';

/*
 * Rows of a tenant table with a version column (every write bumps it: TypeORM's update and save do,
 * and so does every service's versioned patch) kept between requests, so a hot read does not fetch
 * and hydrate again rows that have not changed. The check is the read itself: one statement asks the
 * database for the requested rows whose version is not the cached one,
 *
 *   SELECT * FROM t WHERE company_id = ? AND id IN (…) AND version <> CASE id WHEN ? THEN ? … ELSE 0 END
 *
 * so an unchanged row costs neither transfer nor hydration, a changed one (by this process or any
 * other: the version is in the database) comes back with the answer, and no statement is added.
 * Keyed by company and id (a row of another tenant is never answered: the statement filters by
 * company and the key carries it); bounded, the least recently used row leaving first. The rows are
 * shared between requests: callers never mutate them. Rows of these tables are never deleted.
 */

interface Entry<E> {
  version: number;
  row: E;
}

export class VersionedRowCache<E extends ObjectLiteral & { id: number; version: number }> {
  private readonly entries = new Map<string, Entry<E>>();

  constructor(
    private readonly target: EntityTarget<E>,
    /** Rows kept across every tenant. */
    private readonly maxRows: number,
  ) {}

  /** The rows of `ids` (each once, ascending id, as a primary-key read answers them) that exist in the company. */
  async read(em: EntityManager, companyId: number, ids: readonly number[]): Promise<E[]> {
    if (!ids.length) return [];
    const { statement, rows } = this.plan(em, companyId, ids);
    return rows(await em.query(statement.sql, statement.params));
  }

  /**
   * `read` as a statement to send with others (readBatch) and what answers it from the statement's
   * raw rows. `ids` is not empty.
   */
  plan(em: EntityManager, companyId: number, ids: readonly number[]): { statement: Statement; rows: (raw: unknown) => E[] } {
    const meta = em.connection.getMetadata(this.target);
    const table = em.connection.driver.escape(meta.tableName);
    const params: unknown[] = [companyId, ...ids];
    let sql = `SELECT * FROM ${table} WHERE company_id = ? AND id IN (${ids.map(() => '?').join(', ')})`;
    const cached: (Entry<E> | undefined)[] = ids.map((id) => this.entries.get(`${companyId}:${id}`));
    let whens = '';
    for (let i = 0; i < ids.length; i++) {
      const entry = cached[i];
      if (!entry) continue;
      whens += ' WHEN ? THEN ?';
      params.push(ids[i], entry.version);
    }
    // Versions start at 1: a row not cached is always answered.
    if (whens) sql += ` AND version <> CASE id${whens} ELSE 0 END`;
    return { statement: { sql, params }, rows: (raw) => this.answer(em, companyId, ids, cached, raw as Record<string, unknown>[]) };
  }

  private answer(
    em: EntityManager,
    companyId: number,
    ids: readonly number[],
    cached: (Entry<E> | undefined)[],
    raw: Record<string, unknown>[],
  ): E[] {
    const fresh = hydrate(em, this.target, raw);
    const byId = new Map<number, E>();
    for (const row of fresh) {
      byId.set(row.id, row);
      this.put(`${companyId}:${row.id}`, { version: row.version, row });
    }
    for (let i = 0; i < ids.length; i++) {
      const entry = cached[i];
      if (!entry || byId.has(ids[i])) continue;
      byId.set(ids[i], entry.row);
      this.touch(`${companyId}:${ids[i]}`, entry);
    }
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }

  /** One row of the company, or null. */
  async readOne(em: EntityManager, companyId: number, id: number): Promise<E | null> {
    return (await this.read(em, companyId, [id]))[0] ?? null;
  }

  private put(key: string, entry: Entry<E>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxRows) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Most recently used last (a Map keeps insertion order). */
  private touch(key: string, entry: Entry<E>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }
}
