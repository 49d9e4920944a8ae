import { dataSource } from '../../src/core/db/data-source';

/*
 * What a piece of work sends to the database, seen through TypeORM's logger: it logs every query
 * once, and on MySQL a transaction's batch (core/db/batching-query-runner.ts) is one logged query, so a
 * logged query is a round trip.
 */

/** Counts the round trips `work` makes (SQL statements on SQLite, where each runs as issued). */
export async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const { result, roundTrips } = await recordStatements(work);
  return { result, queries: roundTrips.length };
}

/**
 * The shape of one statement: its verb and table (`SELECT product`, `INSERT sales_order`,
 * `UPDATE stock_balance`, `START TRANSACTION`, `COMMIT`), enough to pin what a transaction sends
 * without pinning its every column.
 */
export function shapeOf(sql: string): string {
  const s = sql.trim().replace(/\s+/g, ' ');
  const table = (re: RegExp) => (re.exec(s)?.[1] ?? '?').replace(/[`"]/g, '');
  // The guard of a conditional write (core/db batching runner, `expect`).
  if (/^SELECT IF\(ROW_COUNT\(\)/i.test(s)) return 'GUARD';
  if (/^SELECT/i.test(s)) return `SELECT ${table(/ FROM ([`"\w]+)/i)}${/ FOR UPDATE$/i.test(s) ? ' FOR UPDATE' : ''}`;
  if (/^INSERT/i.test(s)) return `INSERT ${table(/^INSERT (?:IGNORE )?INTO ([`"\w]+)/i)}`;
  if (/^UPDATE/i.test(s)) return `UPDATE ${table(/^UPDATE ([`"\w]+)/i)}`;
  if (/^DELETE/i.test(s)) return `DELETE ${table(/^DELETE FROM ([`"\w]+)/i)}`;
  return s.toUpperCase();
}

export interface Recording<T> {
  result: T;
  /** Each logged query: the statements it carried (a MySQL batch carries several, joined by `;\n`). */
  roundTrips: string[][];
}

/** Runs `work` and records the statements of each round trip it makes, in order. */
export async function recordStatements<T>(work: () => Promise<T>): Promise<Recording<T>> {
  const logger = dataSource.logger;
  const original = logger.logQuery;
  const roundTrips: string[][] = [];
  logger.logQuery = function (this: typeof logger, ...args: Parameters<typeof original>) {
    roundTrips.push(args[0].split(';\n'));
    return original.apply(this, args);
  };
  try {
    const result = await work();
    return { result, roundTrips };
  } finally {
    logger.logQuery = original;
  }
}

/**
 * The round trips of the transactions in a recording (from the one that starts a transaction to the
 * one that commits it), each as the shapes of its statements.
 */
export function transactionsOf(roundTrips: string[][]): string[][][] {
  const transactions: string[][][] = [];
  let open: string[][] | undefined;
  for (const trip of roundTrips) {
    const shapes = trip.map(shapeOf);
    if (shapes.includes('START TRANSACTION')) open = [];
    if (!open) continue;
    open.push(shapes);
    if (shapes.includes('COMMIT') || shapes.includes('ROLLBACK')) {
      transactions.push(open);
      open = undefined;
    }
  }
  return transactions;
}
