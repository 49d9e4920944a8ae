/* The API as a benchmark target: its own process (as in production), on an ephemeral port. */
import { createApp } from '../src/app';
import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';

(async () => {
  await openDatabase();
  const server = createApp().listen(0, '127.0.0.1', () => {
    const addr = server.address();
    console.log(`LISTENING ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
  // --cpu-prof writes its profile on a normal exit, so SIGTERM exits normally.
  process.on('SIGTERM', () => server.close(() => dataSource.destroy().finally(() => process.exit(0))));
})();
