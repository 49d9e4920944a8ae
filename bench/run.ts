/*
 * npm run bench [-- <name> ...]: runs bench/<name>.bench.ts (all of them when no name is given),
 * one after another. Each bench prints its figures and appends nothing by itself; the figures we
 * keep are copied into bench/RESULTS.md with the date and machine.
 * Benches expect MariaDB at DB_URL (default mysql://root@127.0.0.1:3306/bench).
 * BENCH_TARGET=/path/to/checkout measures that checkout's code with these benches (bench/target.ts):
 *   BENCH_TARGET=/work/baseline npm run bench -- quick-sale && npm run bench -- quick-sale
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { TARGET_ROOT, targetLabel } from './target';

const names = process.argv.slice(2);
const all = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
const selected = names.length ? names : all;
let failed = 0;
for (const name of selected) {
  if (!all.includes(name)) {
    console.error(`no bench named ${name} (have: ${all.join(', ')})`);
    failed++;
    continue;
  }
  console.log(`\n=== bench: ${name} — target ${targetLabel()} (${TARGET_ROOT}) ===`);
  const res = spawnSync(
    process.execPath,
    ['-r', 'ts-node/register', '-r', path.join(__dirname, 'target.ts'), path.join(__dirname, `${name}.bench.ts`)],
    {
      stdio: 'inherit',
      env: {
        NODE_ENV: 'production',
        JWT_SECRET: 'bench-secret-0123456789abcdef',
        HASHIDS_SALT: 'bench-salt-0123',
        CERT_ENCRYPTION_KEY: '0'.repeat(64),
        LOG_LEVEL: 'error',
        RATE_LIMIT_MAX: '100000000',
        RATE_LIMIT_ADDRESS_MAX: '100000000',
        DB_URL: 'mysql://root@127.0.0.1:3306/bench',
        ...process.env,
      },
    },
  );
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
