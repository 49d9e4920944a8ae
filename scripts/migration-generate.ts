/*
 * Generates (or, with --check, verifies) the migrations of BOTH engines from the entities:
 *   npm run migration:generate -- <Name>        writes migrations/mysql/<ts>-<Name>.ts and migrations/sqlite/<ts>-<Name>.ts
 *   npm run migration:check                      exits 1 when either set differs from the entities
 * Each engine is diffed against a scratch database built by running that engine's migrations:
 * a temporary SQLite file, and a temporary database on the MySQL server of MIGRATION_DB_URL
 * (default mysql://root@127.0.0.1:3306).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const name = args.find((a) => !a.startsWith('--'));
const engines = (process.env.MIGRATION_ENGINES ?? 'mysql,sqlite').split(',');
if (!check && !name) {
  console.error('usage: npm run migration:generate -- <Name>   |   npm run migration:check');
  process.exit(2);
}

const server = new URL(process.env.MIGRATION_DB_URL ?? 'mysql://root@127.0.0.1:3306');
server.pathname = '';
const serverUrl = server.toString().replace(/\/$/, '');
const timestamp = Date.now();

/** Runs the TypeORM CLI; its SQL echo is shown only when the step fails (or with VERBOSE=1). */
function typeorm(env: NodeJS.ProcessEnv, cliArgs: string[]): number {
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/typeorm/cli-ts-node-commonjs.js'), ...cliArgs, '-d', 'ormconfig.ts'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'error', ...env },
      encoding: 'utf8',
    },
  );
  const status = res.status ?? 1;
  if (status !== 0 || process.env.VERBOSE === '1') process.stdout.write(`${res.stdout ?? ''}${res.stderr ?? ''}`);
  else for (const line of (res.stdout ?? '').split('\n')) if (/has been generated|No changes/.test(line)) console.log(line);
  return status;
}

async function forEngine(engine: string): Promise<number> {
  let env: NodeJS.ProcessEnv;
  let cleanup: () => Promise<void>;
  if (engine === 'mysql') {
    const db = `migration_scratch_${process.pid}`;
    const conn = await mysql.createConnection(`${serverUrl}/`);
    await conn.query(`CREATE DATABASE \`${db}\``);
    const [[{ v }]] = (await conn.query('SELECT VERSION() AS v')) as unknown as [[{ v: string }]];
    // Schema comparison follows the server's flavour (MariaDB reports defaults differently).
    const scheme = /mariadb/i.test(v) ? 'mariadb' : 'mysql';
    env = { DB_URL: `${serverUrl.replace(/^\w+:/, `${scheme}:`)}/${db}` };
    cleanup = async () => {
      await conn.query(`DROP DATABASE \`${db}\``);
      await conn.end();
    };
  } else {
    const file = path.join(os.tmpdir(), `migration-scratch-${process.pid}.sqlite`);
    env = { DB_URL: '', SQLITE_FILE: file };
    cleanup = async () => {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    };
  }
  try {
    if (typeorm(env, ['migration:run']) !== 0) return 1;
    const out = check
      ? ['migration:generate', `migrations/${engine}/Check`, '--check']
      : ['migration:generate', `migrations/${engine}/${name}`, '--pretty', '-t', String(timestamp)];
    const status = typeorm(env, out);
    if (check && status !== 0) console.error(`✗ migrations/${engine} differ from the entities (run: npm run migration:generate -- <Name>)`);
    if (check && status === 0) console.log(`✓ migrations/${engine} match the entities`);
    return status;
  } finally {
    await cleanup();
  }
}

void (async () => {
  let failed = 0;
  for (const engine of engines) failed += (await forEngine(engine)) ? 1 : 0;
  process.exit(failed ? 1 : 0);
})();
