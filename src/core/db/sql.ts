import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/*
 * Plain SQL for the hottest statements, still driven by the entities' metadata (column names,
 * transformers such as the decimal and JSON ones, engine-specific value preparation): the query
 * builders' own work costs about as much CPU as the database round trip on short statements.
 */

/** Entities from raw rows (`SELECT *` or a subset of columns). */
export function hydrate<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, rows: Record<string, unknown>[]): E[] {
  const meta = em.connection.getMetadata(target);
  return rows.map((row) => {
    const entity = meta.create() as E;
    for (const column of meta.columns) {
      if (column.databaseName in row) column.setEntityValue(entity, em.connection.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
  });
}

/**
 * One multi-row INSERT of the given rows (every row sets the same properties; columns left out take
 * their database defaults). Answers the driver's raw result (insertId / lastInsertRowid).
 */
export async function insertRows<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, rows: Partial<E>[]): Promise<unknown> {
  if (!rows.length) return undefined;
  const meta = em.connection.getMetadata(target);
  const driver = em.connection.driver;
  const columns = meta.columns.filter((c) => c.propertyName in rows[0]);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const params: unknown[] = [];
  for (const row of rows) for (const c of columns) params.push(driver.preparePersistentValue(c.getEntityValue(row), c) ?? null);
  const sql = `INSERT INTO ${driver.escape(meta.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  return em.query(sql, params);
}

/** Rows of one entity's table matching `company_id = ?` and the given column conditions (equality or IN). */
export async function selectRows<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  where: Record<string, number | string | boolean | (number | string)[]>,
): Promise<E[]> {
  const meta = em.connection.getMetadata(target);
  const driver = em.connection.driver;
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(where)) {
    if (Array.isArray(value)) {
      if (!value.length) return [];
      clauses.push(`${driver.escape(column)} IN (${value.map(() => '?').join(', ')})`);
      params.push(...value);
    } else {
      clauses.push(`${driver.escape(column)} = ?`);
      params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
    }
  }
  return hydrate(em, target, await em.query(`SELECT * FROM ${driver.escape(meta.tableName)} WHERE ${clauses.join(' AND ')}`, params));
}
