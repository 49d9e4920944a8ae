// Prints what a restore must give back, as one JSON line: the row count of every table and the totals
// of stock and balances (stock on hand, payables' amounts and paid amounts, payments). Used by
// scripts/backup-drill.sh to compare a database with its restored copy. `--check-stock` also fails
// unless every stock balance equals the sum of its movements (what `npm run check:stock` proves).
import { dataSource } from '../src/core/db/data-source';
import { findStockMismatches } from '../src/modules/stock/stock.repository';
import { fail, withDatabase } from './cli';

export async function fingerprint(): Promise<string> {
  const tables = dataSource.entityMetadatas.map((m) => m.tableName).sort();
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = Number((await dataSource.query(`SELECT COUNT(*) AS n FROM ${t}`))[0].n);
  const one = async (sql: string) => String((await dataSource.query(sql))[0].v ?? '0');
  const totals = {
    stockQuantity: await one('SELECT CAST(COALESCE(SUM(quantity), 0) AS CHAR) AS v FROM stock_balance'),
    payableAmount: await one('SELECT CAST(COALESCE(SUM(amount), 0) AS CHAR) AS v FROM payable'),
    payablePaid: await one('SELECT CAST(COALESCE(SUM(paid_amount), 0) AS CHAR) AS v FROM payable'),
    payments: await one('SELECT CAST(COALESCE(SUM(amount), 0) AS CHAR) AS v FROM payable_payment'),
  };
  // Normalized so both engines print the same number for the same value.
  for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] = String(Number(totals[k]));
  return JSON.stringify({ counts, totals });
}

if (require.main === module) {
  withDatabase(async () => {
    if (process.argv.includes('--check-stock')) {
      const mismatches = await findStockMismatches(dataSource.manager);
      if (mismatches.length)
        fail(`✗ ${mismatches.length} stock balance(s) differ from their movements: ${JSON.stringify(mismatches.slice(0, 5))}`);
      console.error('✓ every stock balance equals the sum of its movements');
    }
    console.log(await fingerprint());
  }).catch((err) => fail(err.message));
}
