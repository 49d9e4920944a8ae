import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { config } from '../config';
import { codeRoot, projectRoot } from '../paths';
import { entities } from './entities';
import { createMysqlPool } from './host-pool';
import { registerPool } from './pool-registry';

/** Migrations live per engine; both sets are generated from the same entities (compiled ones under dist/). */
export const migrationsDir = (engine = config.db.engine) => path.join(codeRoot, 'migrations', engine);

export function buildDataSourceOptions(overrides: Partial<{ url: string; sqliteFile: string }> = {}): DataSourceOptions {
  const common = {
    entities,
    migrations: [path.join(migrationsDir(), '*.{ts,js}')],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    // Failed queries surface as exceptions (and expected ones, like unique violations, are handled).
    logging: (config.db.logging ? ['query', 'error'] : false) as ('query' | 'error')[] | false,
  };
  if (config.db.engine === 'mysql') {
    return {
      ...common,
      type: config.db.flavor,
      url: (overrides.url ?? config.db.url)?.replace(/^mariadb:/, 'mysql:'),
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      supportBigNumbers: true,
      bigNumberStrings: true,
      // No multiple statements here: only the transactions' own pool batches (core/db/batching-query-runner.ts).
      // mysql2 captures a stack trace per query for its errors; production spares that CPU.
      extra: {
        connectionLimit: config.db.poolSize,
        trace: config.env !== 'production',
        ...(config.db.socketPath ? { socketPath: config.db.socketPath } : {}),
      },
    } as unknown as DataSourceOptions;
  }
  const file = overrides.sqliteFile ?? config.db.sqliteFile;
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(projectRoot, file)), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: file === ':memory:' ? file : path.resolve(projectRoot, file),
    // WAL keeps readers off the writer's back; foreign keys unused (see README: no FKs, for sharding).
    // synchronous = FULL: a commit is on disk before it answers, so a sale that got its 201 survives a
    // power cut, not only a crash of the process (docs/decisions.md "SQLite durability").
    prepareDatabase: (db: { pragma: (s: string) => unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    },
  } as unknown as DataSourceOptions;
}

export const dataSource = new DataSource(buildDataSourceOptions());
registerPool('main', () => (dataSource.isInitialized ? (dataSource.driver as unknown as { pool?: unknown }).pool : undefined));

// TypeORM's driver gets the host pool (host-pool.ts): spread over the hosts of a Galera cluster, and
// with its deadlines on one server too.
if (config.db.engine === 'mysql') {
  type Pool = ReturnType<typeof createMysqlPool>;
  Object.assign(dataSource.driver, {
    createPool: (options: Record<string, unknown>) =>
      new Promise<Pool>((resolve, reject) => {
        const pool = createMysqlPool(options, config.db.hosts, config.db.hostRetryMs, config.db.deadlines);
        // Like TypeORM's own: fail at start when no host takes a connection.
        pool.getConnection((err, connection) => (err ? pool.end(() => reject(err)) : (connection!.release(), resolve(pool))));
      }),
  });
}
