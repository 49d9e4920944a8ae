// npm run seed: creates the demo tenant if absent and prints it as one JSON line (hashids).
import { seedDemoTenant } from '../src/demo/demo-seed';
import { withDatabase } from './cli';

withDatabase(async () => {
  const { summary } = await seedDemoTenant();
  console.log(JSON.stringify(summary));
}).catch((err) => {
  console.error(err.message);
  process.exit(1);
});
