import { dataSource } from '../../src/core/db/data-source';

/**
 * Rows in every table of the schema (one UNION ALL query): "a failed request writes nothing" is
 * checked by comparing two snapshots. With `companyId`, only that tenant's rows of the tables that
 * carry company_id.
 */
export async function rowCounts(companyId?: number): Promise<Record<string, number>> {
  const tables = dataSource.entityMetadatas
    .filter((m) => m.tableType === 'regular' && (companyId === undefined || m.columns.some((c) => c.databaseName === 'company_id')))
    .map((m) => m.tableName)
    .sort();
  const esc = (name: string) => (dataSource.options.type === 'better-sqlite3' ? `"${name}"` : `\`${name}\``);
  const sql = tables
    .map(
      (t) => `SELECT '${t}' AS t, COUNT(*) AS n FROM ${esc(t)}${companyId === undefined ? '' : ` WHERE company_id = ${Number(companyId)}`}`,
    )
    .join(' UNION ALL ');
  const rows: { t: string; n: number | string }[] = await dataSource.query(sql);
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/** The tables whose counts differ between two snapshots, with both counts. */
export function changedTables(before: Record<string, number>, after: Record<string, number>): Record<string, [number, number]> {
  return Object.fromEntries(
    Object.keys({ ...before, ...after })
      .filter((t) => before[t] !== after[t])
      .map((t) => [t, [before[t] ?? 0, after[t] ?? 0]]),
  );
}
