/* The API as a benchmark target: its own process (as in production), on an ephemeral port (or BENCH_PORT). */
import { createApp } from '../src/app';
import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';

(async () => {
  await openDatabase();
  // BENCH_WEBHOOKS=1: this replica also delivers webhooks (as `npm start` does), every WEBHOOK_DISPATCH_INTERVAL_MS.
  const dispatcher = process.env.BENCH_WEBHOOKS === '1' ? new (await import('../src/modules/events/webhook-dispatcher')).WebhookDispatcher() : undefined;
  dispatcher?.start(Number(process.env.WEBHOOK_DISPATCH_INTERVAL_MS ?? 1000));
  const server = createApp().listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
    const addr = server.address();
    console.log(`LISTENING ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
  // --cpu-prof writes its profile on a normal exit, so SIGTERM exits normally.
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void (dispatcher?.stop() ?? Promise.resolve()).then(() => dataSource.destroy()).finally(() => process.exit(0)));
  });
})();
