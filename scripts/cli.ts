import { dataSource } from '../src/core/db/data-source';
import { runMigrations } from '../src/core/db/migrate';
import { isSqlite } from '../src/core/db/engine';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { closeBatchingPool } from '../src/core/db/batching-query-runner';
import { openDatabase } from '../src/core/db/connect';

/** Minimal "--flag value" parser shared by the CLIs (repeated flags collect into arrays). */
export function parseArgs(argv = process.argv.slice(2)): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [flag, inline] = a.slice(2).split('=', 2);
    const value = inline ?? (argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true');
    (out[flag] ??= []).push(value);
  }
  return out;
}

/** Opens the database for a CLI; the embedded file gets its migrations like `npm start` does. */
export async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  await openDatabase();
  try {
    if (isSqlite) await runMigrations(dataSource);
    return await work();
  } finally {
    await closeSequencePool();
    await closeBatchingPool();
    await dataSource.destroy();
  }
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
