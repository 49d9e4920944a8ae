import { dataSource } from '../src/core/db/data-source';
import { isMysql } from '../src/core/db/engine';
import { dropAllMysqlTables, runMigrations } from '../src/core/db/migrate';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { closeBatchingPool } from '../src/core/db/batching-query-runner';
import { openDatabase } from '../src/core/db/connect';
import { payloadProblems } from '../src/core/outbox/outbox.service';

/*
 * Root hooks: the test schema is built by the migrations themselves (so they are tested too), on a
 * fresh in-memory SQLite database, or on the MySQL database of DB_URL after dropping its tables.
 * Tests isolate by tenant: each file creates its own companies, so nothing is truncated between tests.
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await openDatabase();
    if (isMysql) await dropAllMysqlTables(dataSource);
    await runMigrations(dataSource);
  },
  async afterAll() {
    // Every event published in the run: money and quantities as JSON numbers (outbox.service.ts).
    const problems = [...new Set(payloadProblems())].slice(0, 50);
    await closeSequencePool();
    await closeBatchingPool();
    if (dataSource.isInitialized) await dataSource.destroy();
    if (problems.length) throw new Error(`Event payloads with decimals as strings (JSON numbers expected):\n  ${problems.join('\n  ')}`);
  },
};
