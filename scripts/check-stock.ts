// npm run check:stock: proves every stock balance equals the sum of its movements (exit 1 otherwise).
import { dataSource } from '../src/core/db/data-source';
import { findStockMismatches } from '../src/modules/stock/stock.repository';
import { fail, withDatabase } from './cli';

withDatabase(async () => {
  const mismatches = await findStockMismatches(dataSource.manager);
  if (mismatches.length) {
    for (const m of mismatches) console.error(JSON.stringify(m));
    fail(`✗ ${mismatches.length} stock balance(s) differ from their movements`);
  }
  console.log('✓ every stock balance equals the sum of its movements');
}).catch((err) => fail(err.message));
