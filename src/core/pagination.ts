import crypto from 'node:crypto';
import { EntityManager, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { readBatch } from './db/transaction';
import { config } from './config';
import { ValidationError } from './errors';
import { isCalendarDate } from './http/schema';

export interface PageRequest {
  page: number;
  pageSize: number;
  cursor?: string;
  includeTotal?: boolean;
}

export interface Pagination {
  page: number;
  pageSize: number;
  total: number | null;
  /** true when `total` stopped counting at the cap (a lower bound on million-row tables). */
  totalCapped?: boolean;
  totalPages: number | null;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** What a sort key holds; a cursor's values are checked against it before they reach SQL. */
export type SortKeyType = 'int' | 'decimal' | 'string' | 'date' | 'datetime';

export interface SortKey {
  /** SQL expression of a column (e.g. 'd.entry_date'); the last key must be the unique id. */
  column: string;
  direction: 'ASC' | 'DESC';
  /**
   * Read from the entity metadata when `column` is `alias.column` of an entity in the query; give it
   * for columns of derived tables. The last key is the id: 'int' unless stated.
   */
  type?: SortKeyType;
}

/** Counting stops here; beyond it the total is reported as a lower bound. */
export const COUNT_CAP = 10_000;

/*
 * Cursors (docs/decisions.md "List cursors"): `<payload>.<mac>`, payload = base64url(JSON array of the
 * last row's sort values), mac = HMAC-SHA256 over the list binding and the payload, truncated to 128
 * bits. The binding is a hash of the filtered query itself (its SQL and parameters, tenant included)
 * and the sort, so a cursor only opens the list, filters and order it came from. A cursor that fails
 * the MAC, or whose values do not fit the sort keys' types, is refused before any SQL: 400 INVALID_CURSOR.
 */
const CURSOR_KEY = crypto.createHmac('sha256', config.hashids.salt).update('list-cursor:v1').digest();
const MAC_LENGTH = 22;
const MAX_STRING = 1000;

export interface CursorBinding {
  binding: string;
  types: SortKeyType[];
}

const invalidCursor = (message = 'cursor is not valid for this list') =>
  new ValidationError('Invalid cursor', [{ path: 'query.cursor', message }], 'INVALID_CURSOR');

const jsonParameters = (params: ObjectLiteral) =>
  // A list of plain values (the plain-SQL lists' usual parameters) reads the same without the replacer, which costs more than the rest.
  Array.isArray(params) && params.every((v) => v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
    ? JSON.stringify(params)
    : JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Buffer ? v.toString('base64') : v));

const COLUMN_TYPES: Record<string, SortKeyType> = {
  int: 'int',
  integer: 'int',
  smallint: 'int',
  tinyint: 'int',
  mediumint: 'int',
  bigint: 'int',
  decimal: 'decimal',
  numeric: 'decimal',
  date: 'date',
  datetime: 'datetime',
  timestamp: 'datetime',
};

/** The type of `alias.column` from the metadata of the entity `alias` names in the query, if any. */
function columnType(qb: SelectQueryBuilder<ObjectLiteral>, column: string): SortKeyType | undefined {
  const m = /^(\w+)\.(\w+)$/.exec(column);
  const alias = m ? qb.expressionMap.aliases.find((a) => a.name === m[1]) : undefined;
  if (!m || !alias?.hasMetadata) return undefined;
  const meta = alias.metadata.columns.find((c) => c.databaseName === m[2]);
  if (!meta) return undefined;
  const type =
    typeof meta.type === 'string' ? meta.type.toLowerCase() : meta.type === Number ? 'int' : meta.type === Date ? 'datetime' : 'varchar';
  return COLUMN_TYPES[type] ?? 'string';
}

const mac = (binding: string, payload: string) =>
  crypto.createHmac('sha256', CURSOR_KEY).update(binding).update('.').update(payload).digest('base64url').slice(0, MAC_LENGTH);

export function encodeCursor(values: unknown[], list: CursorBinding): string {
  const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
  return `${payload}.${mac(list.binding, payload)}`;
}

const TIME = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?)?$/;

function fitsType(value: unknown, type: SortKeyType): boolean {
  switch (type) {
    case 'int':
      return Number.isSafeInteger(value);
    case 'decimal':
      return typeof value === 'string' && value.length <= 70 && /^-?\d+(\.\d+)?$/.test(value);
    case 'date':
    case 'datetime': {
      const m = typeof value === 'string' ? TIME.exec(value) : null;
      return !!m && isCalendarDate(m[1]) && (m[2] === undefined || (Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[4]) <= 59));
    }
    default:
      return (typeof value === 'string' && value.length <= MAX_STRING) || (typeof value === 'number' && Number.isFinite(value));
  }
}

/** The sort values of a cursor of this list, or 400 INVALID_CURSOR. */
export function decodeCursor(cursor: string, list: CursorBinding): unknown[] {
  const [payload, given, ...rest] = cursor.split('.');
  if (!payload || !given || rest.length) throw invalidCursor();
  const expected = mac(list.binding, payload);
  if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    throw invalidCursor('cursor was not issued for this list and these filters');
  }
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== list.types.length || !values.every((v, i) => fitsType(v, list.types[i])))
    throw invalidCursor();
  return values;
}

const normalizeCursorValue = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** Maps a page's rows, keeping the pagination. */
export const mapPage = <A, B>(page: Page<A>, fn: (a: A) => B): Page<B> => ({ data: page.data.map(fn), pagination: page.pagination });

// ---- the engine: a filtered list as SQL text ----

/**
 * A filtered list as SQL: `FROM <from> WHERE <where>` with positional parameters (tenant included).
 * Hot lists write it by hand; a query builder is rendered into one once per request (`sqlListOf`).
 */
export interface SqlList {
  from: string;
  where: string;
  params: unknown[];
}

/** Sort keys with their value types (given, or read from a query builder's entity metadata). */
export type TypedSortKey = SortKey & { type: SortKeyType };

/** The cursor binding of a list (or of a union's branches): its SQL, parameters (tenant included) and sort. */
export function sqlCursorBinding(lists: SqlList[], sort: TypedSortKey[]): CursorBinding {
  const hash = crypto.createHash('sha256');
  for (const l of lists) hash.update(`FROM ${l.from} WHERE ${l.where}`).update('\0').update(jsonParameters(l.params)).update('\0');
  hash.update(JSON.stringify(sort.map((k) => [k.column, k.direction])));
  return { binding: hash.digest('base64url'), types: sort.map((k) => k.type) };
}

/** Keyset condition "after this row" for any mix of directions. */
export function keysetConditionSql(sort: SortKey[], values: unknown[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const ors: string[] = [];
  sort.forEach((key, i) => {
    const ands: string[] = [];
    for (let j = 0; j < i; j++) {
      ands.push(`${sort[j].column} = ?`);
      params.push(values[j]);
    }
    ands.push(`${key.column} ${key.direction === 'ASC' ? '>' : '<'} ?`);
    params.push(values[i]);
    ors.push(`(${ands.join(' AND ')})`);
  });
  return { sql: `(${ors.join(' OR ')})`, params };
}

/** SQL of a page of the list's sort values (`_s0`, `_s1`, …), pageSize + 1 rows deep. */
export function sqlPageQuery(
  list: SqlList,
  sort: SortKey[],
  request: PageRequest,
  after: unknown[] | null,
): { sql: string; params: unknown[] } {
  const { page, pageSize } = request;
  let where = list.where;
  const params = [...list.params];
  if (after) {
    const cond = keysetConditionSql(sort, after);
    where = `(${where}) AND ${cond.sql}`;
    params.push(...cond.params);
  }
  const offset = after ? 0 : (page - 1) * pageSize;
  const sql =
    `SELECT ${sort.map((k, i) => `${k.column} AS _s${i}`).join(', ')} FROM ${list.from} WHERE ${where}` +
    ` ORDER BY ${sort.map((k) => `${k.column} ${k.direction}`).join(', ')} LIMIT ${pageSize + 1}${offset ? ` OFFSET ${offset}` : ''}`;
  return { sql, params };
}

/** SQL of the capped count of a list (`n`). */
export const sqlCountQuery = (list: SqlList): { sql: string; params: unknown[] } => ({
  sql: `SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM ${list.from} WHERE ${list.where} LIMIT ${COUNT_CAP + 1}) t`,
  params: list.params,
});

/** The page from its sort-value rows, the capped count and the loaded rows. */
export async function assemblePage<R>(
  rows: Record<string, unknown>[],
  counted: number | null,
  sort: SortKey[],
  request: PageRequest,
  after: unknown[] | null,
  list: CursorBinding,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
): Promise<Page<R>> {
  const { page, pageSize } = request;
  const hasMore = rows.length > pageSize;
  const pageRows = rows.slice(0, pageSize);
  const idKey = `_s${sort.length - 1}`;
  const pageIds = pageRows.map((r) => Number(r[idKey]));
  let total: number | null = null;
  let totalCapped = false;
  if (counted !== null) {
    total = counted;
    if (total > COUNT_CAP) {
      total = COUNT_CAP;
      totalCapped = true;
    }
  }
  const loaded = pageIds.length ? await load(pageIds) : [];
  const byId = new Map(loaded.map((r) => [idOf(r), r]));
  const data = pageIds.map((id) => byId.get(id)).filter((r): r is R => r !== undefined);
  const last = pageRows[pageRows.length - 1];
  return {
    data,
    pagination: {
      page: after ? 1 : page,
      pageSize,
      total,
      ...(totalCapped ? { totalCapped } : {}),
      totalPages: total === null ? null : Math.ceil(total / pageSize),
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor(
              sort.map((_k, i) => normalizeCursorValue(last[`_s${i}`])),
              list,
            )
          : null,
    },
  };
}

/** Runs a list's statements in one batch (one round trip on MySQL) and returns each one's rows. */
export type BatchRun = (statements: { sql: string; params: unknown[] }[]) => Promise<unknown[]>;

/**
 * A query builder's filtered list as SQL text, rendered once: its FROM (joins and their parameters
 * included) and its WHERE. The FROM is what the builder renders with its conditions replaced by
 * `1 = 1`; the WHERE is what follows it in the builder's own rendering. Grouped builders have no
 * such split and are refused (list their ids instead).
 */
export function sqlListOf(qb: SelectQueryBuilder<ObjectLiteral>): SqlList {
  if (qb.expressionMap.groupBys.length || qb.expressionMap.havings.length)
    throw new Error('paginate: a grouped query builder cannot be listed');
  const bare = () => qb.clone().select('1').orderBy().offset(undefined).limit(undefined);
  const [withoutWhere, fromParams] = bare().where('1 = 1').getQueryAndParameters();
  const [rendered, params] = bare().getQueryAndParameters();
  const head = 'SELECT 1 FROM ';
  const tail = ' WHERE 1 = 1';
  if (!withoutWhere.startsWith(head) || !withoutWhere.endsWith(tail))
    throw new Error(`paginate: unexpected rendering of a list: ${withoutWhere.slice(0, 200)}`);
  const from = withoutWhere.slice(head.length, -tail.length);
  const rest = rendered.slice(head.length + from.length);
  if (!rendered.startsWith(head + from) || !(rest === '' || rest.startsWith(' WHERE ')))
    throw new Error(`paginate: unexpected rendering of a list: ${rendered.slice(0, 200)}`);
  if (params.slice(0, fromParams.length).some((v, i) => v !== fromParams[i]))
    throw new Error('paginate: the FROM of a list binds different parameters');
  return { from, where: rest === '' ? '1 = 1' : rest.slice(' WHERE '.length), params };
}

/** Sort keys typed from the entity metadata of the builder's aliases (the last key, the id, 'int' unless stated). */
export const typedSort = (qb: SelectQueryBuilder<ObjectLiteral>, sort: SortKey[]): TypedSortKey[] =>
  sort.map((k, i) => ({ ...k, type: k.type ?? columnType(qb, k.column) ?? (i === sort.length - 1 ? 'int' : 'string') }));

/** The manager a query builder runs on: its transaction's, or the pool's. */
const managerOf = (qb: SelectQueryBuilder<ObjectLiteral>): EntityManager =>
  (qb as unknown as { queryRunner?: QueryRunner }).queryRunner?.manager ?? qb.connection.manager;

/**
 * Two-phase list (SPEC §0), the one pagination engine. Phase 1 selects only the sort values of the
 * page (`pageSize + 1` rows: the extra one says whether more follow) and a capped count, both in one
 * batch (`run`; one round trip on MySQL), from the filtered list, which indexes can answer; phase 2
 * (`load`) reads those rows with their relations in a fixed number of queries. `cursor` switches to
 * keyset paging for deep scrolling. A list is a query builder (rendered once, run on the builder's
 * own manager) or SQL text with typed sort keys and the caller's batch reader.
 */
export function paginate<R>(
  list: SqlList,
  sort: TypedSortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  run: BatchRun,
): Promise<Page<R>>;
export function paginate<E extends ObjectLiteral, R>(
  list: SelectQueryBuilder<E>,
  sort: SortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
): Promise<Page<R>>;
export async function paginate<R>(
  source: SqlList | SelectQueryBuilder<ObjectLiteral>,
  sortKeys: SortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  batch?: BatchRun,
): Promise<Page<R>> {
  let filtered: SqlList;
  let sort: TypedSortKey[];
  let run: BatchRun;
  if (source instanceof SelectQueryBuilder) {
    filtered = sqlListOf(source);
    sort = typedSort(source, sortKeys);
    const em = managerOf(source);
    run = (statements) => readBatch(em, statements);
  } else {
    if (!batch || !sortKeys.every((k) => k.type)) throw new Error('paginate: a list given as SQL needs typed sort keys and a batch reader');
    filtered = source;
    sort = sortKeys as TypedSortKey[];
    run = batch;
  }
  const list = sqlCursorBinding([filtered], sort);
  const after = request.cursor ? decodeCursor(request.cursor, list) : null;
  const withTotal = request.includeTotal !== false;
  const results = await run(
    withTotal ? [sqlPageQuery(filtered, sort, request, after), sqlCountQuery(filtered)] : [sqlPageQuery(filtered, sort, request, after)],
  );
  const rows = results[0] as Record<string, unknown>[];
  const counted = withTotal ? Number((results[1] as { n: string | number }[])[0]?.n ?? 0) : null;
  return assemblePage(rows, counted, sort, request, after, list, load, idOf);
}
