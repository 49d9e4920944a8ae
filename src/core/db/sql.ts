import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Statement } from './batching-query-runner';
import { deferWrite } from './transaction';

/** TypeORM's ColumnMetadata, named through its public EntityMetadata. */
type ColumnMetadata = EntityMetadata['columns'][number];

/*
 * Plain SQL for the hottest statements, still driven by the entities' metadata (column names,
 * transformers such as the decimal and JSON ones, engine-specific value preparation): the query
 * builders' own work costs about as much CPU as the database round trip on short statements.
 */

/**
 * A row to insert: for a tenant-owned entity (one with `companyId`) the company must be set, so a
 * plain-SQL insert cannot leave the tenant out.
 */
export type TenantRow<E> = Partial<E> & (E extends { companyId: number } ? { companyId: number } : unknown);

/** Entities from raw rows (`SELECT *` or a subset of columns). */
export function hydrate<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, rows: Record<string, unknown>[]): E[] {
  const meta = em.connection.getMetadata(target);
  return rows.map((row) => {
    const entity = meta.create() as E;
    for (const column of meta.columns) {
      if (column.databaseName in row)
        column.setEntityValue(entity, em.connection.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
  });
}

/**
 * The tables whose ids are taken before the INSERT (core/sequence/ids.ts): every row inserted into
 * them carries its id, or an AUTO_INCREMENT id could take one a block already handed out.
 */
export const ALLOCATED_ID_TABLES: ReadonlySet<string> = new Set([
  'sales_order',
  'sales_order_item',
  'fulfillment',
  'nfce_document',
  'outbound_nfe',
]);

/**
 * One multi-row INSERT of the given rows (every row sets the same properties; columns left out take
 * their database defaults).
 */
export function insertStatement<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  rows: TenantRow<E>[],
  /** Properties whose value is an SQL expression, the same in every row. */
  expressions: Partial<Record<keyof E & string, string>> = {},
): Statement {
  const meta = em.connection.getMetadata(target);
  const driver = em.connection.driver;
  if (ALLOCATED_ID_TABLES.has(meta.tableName) && rows.some((r) => !(r as { id?: unknown }).id))
    throw new Error(`${meta.tableName}: a row without its id (take it with allocateIds, core/sequence/ids.ts)`);
  const shape = insertShape(meta, driver, rows[0], expressions as Record<string, string | undefined>);
  const params: unknown[] = [];
  for (const row of rows) for (const c of shape.bound) params.push(driver.preparePersistentValue(c.getEntityValue(row), c) ?? null);
  const sql = rows.length === 1 ? shape.head + shape.tuple : shape.head + rows.map(() => shape.tuple).join(', ');
  return { sql, params };
}

interface InsertShape {
  /** `INSERT INTO t (a, b) VALUES ` */
  head: string;
  /** `(?, ?)`, expressions in place. */
  tuple: string;
  /** The columns bound through placeholders, in order. */
  bound: ColumnMetadata[];
}

/*
 * The SQL of an INSERT depends only on the entity, the properties its rows set and the expressions:
 * worked out once per such shape (a few per entity) instead of per statement.
 */
const insertShapes = new WeakMap<EntityMetadata, Map<string, InsertShape>>();

/** The shape an entity's last insert took, with what it was keyed by: a hot path inserts the same shape again and again. */
interface LastShape {
  plain: boolean;
  properties: string[];
  expressions: string;
  shape: InsertShape;
}
const lastShapes = new WeakMap<EntityMetadata, LastShape>();

function insertShape(
  meta: EntityMetadata,
  driver: EntityManager['connection']['driver'],
  first: ObjectLiteral,
  expressions: Record<string, string | undefined>,
): InsertShape {
  // `in` (below) also sees what a row's prototype declares: plain rows and entity instances are told apart.
  const plain = Object.getPrototypeOf(first) === Object.prototype;
  let expressionsKey = '';
  for (const property in expressions) expressionsKey += `|${property}=${expressions[property]}`;
  // The same key as the last insert of this entity (same kind of row, same properties in the same
  // order, same expressions): its shape, without spelling the key out.
  const last = lastShapes.get(meta);
  if (last && last.plain === plain && last.expressions === expressionsKey) {
    let i = 0;
    let same = true;
    for (const property in first) {
      if (last.properties[i++] !== property) {
        same = false;
        break;
      }
    }
    if (same && i === last.properties.length) return last.shape;
  }
  let shapes = insertShapes.get(meta);
  if (!shapes) insertShapes.set(meta, (shapes = new Map<string, InsertShape>()));
  let key = plain ? 'plain:' : 'entity:';
  const properties: string[] = [];
  for (const property in first) {
    key += property + ',';
    properties.push(property);
  }
  key += expressionsKey;
  let shape = shapes.get(key);
  if (!shape) {
    const columns = meta.columns.filter((c) => c.propertyName in first || c.propertyName in expressions);
    shape = {
      head: `INSERT INTO ${driver.escape(meta.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES `,
      tuple: `(${columns.map((c) => expressions[c.propertyName] ?? '?').join(', ')})`,
      bound: columns.filter((c) => expressions[c.propertyName] === undefined),
    };
    shapes.set(key, shape);
  }
  lastShapes.set(meta, { plain, properties, expressions: expressionsKey, shape });
  return shape;
}

/** `col = ?, …` for the given properties of an entity, values prepared as the entity's columns store them. */
export function setClause<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, values: Partial<E>): Statement {
  const meta = em.connection.getMetadata(target);
  const driver = em.connection.driver;
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [property, value] of Object.entries(values)) {
    const column = meta.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${meta.name} has no property ${property}`);
    parts.push(`${driver.escape(column.databaseName)} = ?`);
    params.push(driver.preparePersistentValue(value, column) ?? null);
  }
  return { sql: parts.join(', '), params };
}

/** Inserts the rows now; answers the driver's raw result (insertId / lastInsertRowid). */
export async function insertRows<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  rows: TenantRow<E>[],
): Promise<unknown> {
  if (!rows.length) return undefined;
  const { sql, params } = insertStatement(em, target, rows);
  return em.query(sql, params);
}

/** Inserts rows nobody reads back in this transaction: the INSERT is deferred, it travels with the next statement. */
export async function deferInsertRows<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  rows: TenantRow<E>[],
): Promise<void> {
  if (rows.length)
    await deferWrite(em, { ...insertStatement(em, target, rows), label: `insert into ${em.connection.getMetadata(target).tableName}` });
}

/** Id of a row inserted by insertRows: MySQL answers a result header, SQLite the rowid. */
export function insertedId(raw: unknown): number {
  if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw);
  return Number((raw as { insertId: number | string }).insertId);
}

/** Rows of one entity's table in one company matching the given property conditions (equality or IN). */
export async function selectRows<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  companyId: number,
  where: Partial<Record<keyof E & string, number | string | boolean | (number | string)[]>>,
): Promise<E[]> {
  const meta = em.connection.getMetadata(target);
  const driver = em.connection.driver;
  const clauses = ['company_id = ?'];
  const params: unknown[] = [companyId];
  for (const [property, value] of Object.entries(where) as [string, number | string | boolean | (number | string)[] | undefined][]) {
    if (value === undefined) continue;
    const column = meta.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${meta.name} has no property ${property}`);
    const name = driver.escape(column.databaseName);
    if (Array.isArray(value)) {
      if (!value.length) return [];
      clauses.push(`${name} IN (${value.map(() => '?').join(', ')})`);
      params.push(...value);
    } else {
      clauses.push(`${name} = ?`);
      params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
    }
  }
  return hydrate(em, target, await em.query(`SELECT * FROM ${driver.escape(meta.tableName)} WHERE ${clauses.join(' AND ')}`, params));
}

// SQLite allows 32,766 bound parameters per statement; bulk inserts go in chunks under that.
const MAX_PARAMS = 30_000;

/**
 * Inserts any number of rows, as few multi-row INSERTs as the engines' parameter limits allow
 * (through the query builder: rows may set different properties; columns left out take their
 * defaults). The one chunked insert of the service.
 */
export async function insertChunked<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  rows: TenantRow<E>[],
): Promise<void> {
  if (!rows.length) return;
  const perRow = Math.max(1, ...rows.map((r) => Object.keys(r).length));
  const size = Math.max(1, Math.floor(MAX_PARAMS / perRow));
  if (plainInsertable(em, target, rows)) {
    // The same rows in plain SQL: the insert builder's parameter bookkeeping costs more CPU than the
    // statement on a few hundred rows (about a third of a 990-line NF-e import).
    // insertStatement takes its columns from the first row: one without its undefined properties
    const first = Object.fromEntries(Object.entries(rows[0]).filter(([, v]) => v !== undefined)) as TenantRow<E>;
    const all = [first, ...rows.slice(1)];
    for (let i = 0; i < all.length; i += size) await insertRows(em, target, all.slice(i, i + size));
    return;
  }
  for (let i = 0; i < rows.length; i += size) {
    await em
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(rows.slice(i, i + size) as never)
      .updateEntity(false)
      .execute();
  }
}

/**
 * Whether `insertStatement` writes exactly what the insert builder would: an entity without columns
 * the builder fills itself (version, dates, non-increment generation, relations, embeddeds), and rows
 * that all define the same properties (the builder writes DEFAULT for an undefined value, the plain
 * statement would write NULL).
 */
function plainInsertable<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, rows: TenantRow<E>[]): boolean {
  const meta = em.connection.getMetadata(target);
  for (const c of meta.columns) {
    if (
      c.isVersion ||
      c.isCreateDate ||
      c.isUpdateDate ||
      c.isDeleteDate ||
      c.isVirtual ||
      c.isDiscriminator ||
      c.relationMetadata ||
      c.embeddedMetadata
    )
      return false;
    if (c.isGenerated && c.generationStrategy !== 'increment') return false;
  }
  // every row defines the same columns (undefined counts as not defined)
  const defined = (row: Record<string, unknown>) =>
    meta.columns
      .filter((c) => row[c.propertyName] !== undefined)
      .map((c) => c.propertyName)
      .join(',');
  const shape = defined(rows[0] as Record<string, unknown>);
  for (const row of rows) if (defined(row as Record<string, unknown>) !== shape) return false;
  return true;
}
