import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ValidationError } from './errors';

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

export interface SortKey {
  /** SQL expression of a column (e.g. 'd.entry_date'); the last key must be the unique id. */
  column: string;
  direction: 'ASC' | 'DESC';
}

/** Counting stops here; beyond it the total is reported as a lower bound. */
export const COUNT_CAP = 10_000;

const encodeCursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
export function decodeCursor(cursor: string, size: number): unknown[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(values) && values.length === size) return values;
  } catch {
    /* falls through */
  }
  throw new ValidationError('Invalid cursor', [{ path: 'cursor', message: 'cursor is not valid for this list' }], 'INVALID_CURSOR');
}

/** Keyset condition "after this row" for any mix of directions. */
export function keysetCondition(sort: SortKey[], values: unknown[]): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const ors: string[] = [];
  sort.forEach((key, i) => {
    const ands = sort.slice(0, i).map((k, j) => `${k.column} = :_c${j}`);
    ands.push(`${key.column} ${key.direction === 'ASC' ? '>' : '<'} :_c${i}`);
    ors.push(`(${ands.join(' AND ')})`);
    params[`_c${i}`] = values[i];
  });
  return { sql: `(${ors.join(' OR ')})`, params };
}

/**
 * Two-phase list (SPEC §0). Phase 1 selects only the ids of the page (and a capped count) from the
 * filtered query, which indexes can answer; phase 2 (`load`) reads those rows with their relations in
 * a fixed number of queries. `cursor` switches to keyset paging for deep scrolling.
 */
export async function paginate<E extends ObjectLiteral, R>(
  filtered: SelectQueryBuilder<E>,
  sort: SortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
): Promise<Page<R>> {
  const { page, pageSize } = request;
  const ids = filtered.clone().select(sort.map((k, i) => `${k.column} AS _s${i}`));
  sort.forEach((k) => ids.addOrderBy(k.column, k.direction));
  if (request.cursor) {
    const cond = keysetCondition(sort, decodeCursor(request.cursor, sort.length));
    ids.andWhere(cond.sql, cond.params);
  } else {
    ids.offset((page - 1) * pageSize);
  }
  const rows: Record<string, unknown>[] = await ids.limit(pageSize + 1).getRawMany();
  const hasMore = rows.length > pageSize;
  const pageRows = rows.slice(0, pageSize);
  const pageIds = pageRows.map((r) => Number(r[`_s${sort.length - 1}`]));

  let total: number | null = null;
  let totalCapped = false;
  if (request.includeTotal !== false) {
    const sub = filtered.clone().select('1', 'one').orderBy().offset(undefined).limit(COUNT_CAP + 1);
    const counted = await filtered
      .createQueryBuilder()
      .select('COUNT(*)', 'n')
      .from(`(${sub.getQuery()})`, 't')
      .setParameters(sub.getParameters())
      .getRawOne<{ n: string | number }>();
    total = Number(counted?.n ?? 0);
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
      page: request.cursor ? 1 : page,
      pageSize,
      total,
      ...(totalCapped ? { totalCapped } : {}),
      totalPages: total === null ? null : Math.ceil(total / pageSize),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(sort.map((_k, i) => normalizeCursorValue(last[`_s${i}`]))) : null,
    },
  };
}

const normalizeCursorValue = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** Maps a page's rows, keeping the pagination. */
export const mapPage = <A, B>(page: Page<A>, fn: (a: A) => B): Page<B> => ({ data: page.data.map(fn), pagination: page.pagination });
