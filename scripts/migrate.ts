// Applies pending migrations to DB_URL's database (or the embedded file) and prints their names.
import { dataSource } from '../src/core/db/data-source';
import { runMigrations } from '../src/core/db/migrate';
import { openDatabase } from '../src/core/db/connect';
import { fail } from './cli';

(async () => {
  await openDatabase();
  try {
    const applied = await runMigrations(dataSource);
    console.log(applied.length ? `applied ${applied.length} migration(s)` : 'no pending migration');
  } finally {
    await dataSource.destroy();
  }
})().catch((err) => fail(err.message));
