import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Dec, dec, sum } from '../decimal';
import { isMysql } from './engine';

export type GroupRow<G extends string, S extends string> = { [K in G]: string | number | null } & { count: number } & { [K in S]: Dec };

/**
 * Count and exact sums of decimal columns of a filtered query, per group (the totals and aging of
 * payables and receivables lists). MySQL sums DECIMALs exactly in SQL; SQLite stores decimals as
 * text and would sum them as doubles, so there the rows come back and are added up here.
 * `groups` and `sums` map result aliases to SQL expressions of the query's own alias.
 */
export async function groupedSums<G extends string, S extends string>(
  filtered: SelectQueryBuilder<ObjectLiteral>,
  groups: Record<G, string>,
  sums: Record<S, string>,
  params: Record<string, unknown> = {},
): Promise<GroupRow<G, S>[]> {
  const groupKeys = Object.keys(groups) as G[];
  const sumKeys = Object.keys(sums) as S[];
  let qb = filtered.clone().setParameters(params);
  groupKeys.forEach((k, i) => (qb = i === 0 ? qb.select(groups[k], k) : qb.addSelect(groups[k], k)));
  if (isMysql) {
    qb.addSelect('COUNT(*)', 'n');
    sumKeys.forEach((k) => qb.addSelect(`SUM(${sums[k]})`, k));
    groupKeys.forEach((k, i) => (i === 0 ? qb.groupBy(k) : qb.addGroupBy(k)));
    return summedInSql(await qb.getRawMany(), groupKeys, sumKeys);
  }
  sumKeys.forEach((k) => qb.addSelect(sums[k], k));
  return sumRowsHere(await qb.getRawMany(), groupKeys, sumKeys);
}

/** MySQL: the groups as SQL summed them (`n` the count; DECIMAL sums as text, exact). */
function summedInSql<G extends string, S extends string>(rows: Record<string, unknown>[], groupKeys: G[], sumKeys: S[]): GroupRow<G, S>[] {
  return rows.map((r) => {
    const out: Record<string, unknown> = { count: Number(r.n) };
    groupKeys.forEach((k) => (out[k] = r[k]));
    sumKeys.forEach((k) => (out[k] = dec(r[k] as string)));
    return out as GroupRow<G, S>;
  });
}

/** SQLite: the rows of each group added up here (exact decimals). */
function sumRowsHere<G extends string, S extends string>(rows: Record<string, unknown>[], groupKeys: G[], sumKeys: S[]): GroupRow<G, S>[] {
  const byKey = new Map<string, { first: Record<string, unknown>; values: Record<string, string[]>; count: number }>();
  for (const r of rows) {
    const key = JSON.stringify(groupKeys.map((k) => r[k]));
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { first: r, values: Object.fromEntries(sumKeys.map((k) => [k, []])), count: 0 }));
    g.count++;
    sumKeys.forEach((k) => g.values[k].push(r[k] as string));
  }
  return [...byKey.values()].map((g) => {
    const out: Record<string, unknown> = { count: g.count };
    groupKeys.forEach((k) => (out[k] = g.first[k]));
    sumKeys.forEach((k) => (out[k] = sum(g.values[k])));
    return out as GroupRow<G, S>;
  });
}

/** An SQL expression with its positional parameters. */
export interface SqlExpr {
  sql: string;
  params: unknown[];
}

/**
 * `groupedSums` as one statement of a batch (SQL text, positional parameters) over `source`, a FROM
 * (a table or derived table aliased as the expressions expect), and the parser of its rows.
 */
export function groupedSumsStatement<G extends string, S extends string>(
  source: SqlExpr,
  groups: Record<G, SqlExpr>,
  sums: Record<S, string>,
): { sql: string; params: unknown[]; parse: (rows: Record<string, unknown>[]) => GroupRow<G, S>[] } {
  const groupKeys = Object.keys(groups) as G[];
  const sumKeys = Object.keys(sums) as S[];
  const params = [...groupKeys.flatMap((k) => groups[k].params), ...source.params];
  const selects = groupKeys.map((k) => `${groups[k].sql} AS ${k}`);
  if (isMysql) {
    return {
      sql: `SELECT ${[...selects, 'COUNT(*) AS n', ...sumKeys.map((k) => `SUM(${sums[k]}) AS ${k}`)].join(', ')} FROM ${source.sql} GROUP BY ${groupKeys.join(', ')}`,
      params,
      parse: (rows) => summedInSql(rows, groupKeys, sumKeys),
    };
  }
  return {
    sql: `SELECT ${[...selects, ...sumKeys.map((k) => `${sums[k]} AS ${k}`)].join(', ')} FROM ${source.sql}`,
    params,
    parse: (rows) => sumRowsHere(rows, groupKeys, sumKeys),
  };
}
