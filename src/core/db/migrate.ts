import { DataSource } from 'typeorm';
import { isMysql } from './engine';
import { withoutStatementDeadline } from './host-pool';

/** Runs pending migrations (the only way the schema is ever built), without the statements' deadline. */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const applied = await withoutStatementDeadline(() => ds.runMigrations({ transaction: isMysql ? 'each' : 'all' }));
  return applied.map((m) => m.name);
}

/** Drops every table of the current MySQL database (test and CI setup only). */
export async function dropAllMysqlTables(ds: DataSource): Promise<void> {
  const rows: { name: string }[] = await ds.query(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'",
  );
  if (!rows.length) return;
  await ds.query('SET FOREIGN_KEY_CHECKS = 0');
  for (const r of rows) await ds.query(`DROP TABLE \`${r.name}\``);
  await ds.query('SET FOREIGN_KEY_CHECKS = 1');
}
