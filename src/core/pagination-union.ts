import {
  assemblePage,
  BatchRun,
  COUNT_CAP,
  CursorBinding,
  decodeCursor,
  Page,
  PageRequest,
  paginate,
  SqlList,
  sqlCountQuery,
  sqlCursorBinding,
  sqlPageQuery,
  TypedSortKey,
} from './pagination';

/*
 * Two-phase pagination over "A OR B OR C" where each of A, B, C has its own index (e.g. orders of some
 * customers, or of some sellers, or with an alias). One query with the OR leaves the optimizer a bad
 * choice on million-row tables (scan the sort index and filter, or merge and sort every match); here
 * each branch is its own index-ordered query cut at the depth the page needs, and only those rows are
 * united and sorted (the top N of a union is within the union of each branch's top N). The count is the
 * union of the branches' capped id lists, so it stays bounded too.
 */
/** A branch of a plain-SQL union list; `ranges`: how many index ranges its condition reads (default 1). */
export interface UnionBranch extends SqlList {
  ranges?: number;
}

/** Branches of at most this many index ranges are walked for the count's early cap. */
const WALKED_RANGES = 10;

/**
 * The capped count (`n`) of the union of plain-SQL branches. A branch with more than COUNT_CAP rows
 * caps the union by itself, and for a branch of few index ranges (a seller, an alias prefix) finding
 * that out is a walk of its index, with no id written to a temporary table. Only when none of those
 * reaches the cap are the branches' ids united and counted (the CASE evaluates its ELSE only then, on
 * MariaDB and SQLite alike). A branch of many ranges (the orders of 250 customers: one index dive
 * each, per pass) is read once, in the union, where it caps the total all the same.
 */
export function unionCountSql(branches: UnionBranch[], idColumn: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const overflows = branches
    .filter((b) => (b.ranges ?? 1) <= WALKED_RANGES)
    .map((b, i) => {
      params.push(...b.params);
      return `EXISTS (SELECT 1 FROM (SELECT ${idColumn} AS _id FROM ${b.from} WHERE ${b.where} LIMIT 1 OFFSET ${COUNT_CAP}) x${i})`;
    });
  const ids = branches
    .map((b, i) => {
      params.push(...b.params);
      return `SELECT _id FROM (SELECT ${idColumn} AS _id FROM ${b.from} WHERE ${b.where} LIMIT ${COUNT_CAP + 1}) c${i}`;
    })
    .join(' UNION ');
  const united = `(SELECT COUNT(*) FROM (${ids}) u)`;
  return {
    sql: overflows.length
      ? `SELECT CASE WHEN ${overflows.join(' OR ')} THEN ${COUNT_CAP + 1} ELSE ${united} END AS n`
      : `SELECT ${united} AS n`,
    params,
  };
}

/**
 * `paginate` over the union of branches (same engine: each branch index-ordered and cut at the page's
 * depth, the union sorted; the count `unionCountSql`). The page's sort values and the count travel in
 * one batch (`run`).
 */
export async function paginateUnion<R>(
  branches: UnionBranch[],
  sort: TypedSortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  run: BatchRun,
): Promise<Page<R>> {
  if (branches.length === 1) return paginate(branches[0], sort, request, load, idOf, run);
  const united = {
    lists: branches,
    distinct: true,
    binding: sqlCursorBinding(branches, sort),
    count: () => unionCountSql(branches, sort[sort.length - 1].column),
  };
  return unitedPage(united, sort, request, load, idOf, run);
}

/**
 * `paginate` over a list split into disjoint parts (`parts`, which together hold exactly the rows of
 * `whole`), each read index-ordered and cut at the page's depth, the parts' rows united (UNION ALL: no
 * row is in two parts) and sorted for the page (the top N of the list is within the union of each
 * part's top N). The count and the cursor binding are `whole`'s, so the page, its total and its
 * cursors are those of `paginate(whole, …)`: a cursor opens either reading of the same list.
 */
export async function paginateParts<R>(
  parts: SqlList[],
  whole: SqlList,
  sort: TypedSortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  run: BatchRun,
): Promise<Page<R>> {
  if (!parts.length) return paginate(whole, sort, request, load, idOf, run);
  return unitedPage(
    { lists: parts, distinct: false, binding: sqlCursorBinding([whole], sort), count: () => sqlCountQuery(whole) },
    sort,
    request,
    load,
    idOf,
    run,
  );
}

/** Lists read as one: united (UNION, or UNION ALL when disjoint), their cursors bound to `binding`, their total `count`. */
interface United {
  lists: SqlList[];
  distinct: boolean;
  binding: CursorBinding;
  count: () => { sql: string; params: unknown[] };
}

/** The page of a union: each list cut at the page's depth, the union sorted for the page, the count in the same batch. */
async function unitedPage<R>(
  united: United,
  sort: TypedSortKey[],
  request: PageRequest,
  load: (ids: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  run: BatchRun,
): Promise<Page<R>> {
  const { page, pageSize } = request;
  const cursor = request.cursor ? decodeCursor(request.cursor, united.binding) : null;
  const depth = (cursor ? 0 : (page - 1) * pageSize) + pageSize + 1;
  const keys = sort.map((_k, i) => `_s${i}`);
  const params: unknown[] = [];
  const unionSql = united.lists
    .map((b, i) => {
      const q = sqlPageQuery(b, sort, { page: 1, pageSize: depth - 1 }, cursor);
      params.push(...q.params);
      return `SELECT ${keys.join(', ')} FROM (${q.sql}) b${i}`;
    })
    .join(united.distinct ? ' UNION ' : ' UNION ALL ');
  const outerSort = sort.map((k, i) => ({ column: `u.${keys[i]}`, direction: k.direction, type: k.type }));
  const outer = sqlPageQuery({ from: `(${unionSql}) u`, where: '1 = 1', params }, outerSort, request, cursor);
  const withTotal = request.includeTotal !== false;
  const results = await run(withTotal ? [outer, united.count()] : [outer]);
  const counted = withTotal ? Number((results[1] as { n: string | number }[])[0]?.n ?? 0) : null;
  return assemblePage(results[0] as Record<string, unknown>[], counted, outerSort, request, cursor, united.binding, load, idOf);
}
