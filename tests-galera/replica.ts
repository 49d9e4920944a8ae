/*
 * One service replica of the Galera suite: the API on PORT (0: a free port, printed as `LISTENING <port>`) over the database of DB_URL (one node, or
 * several). The suite asks it over IPC how many transactions it ran again after a conflict, and how
 * its database hosts fared (host-pool.ts). With GALERA_REPLICA_WORKERS=1 it also runs the background
 * workers `npm start` runs (recovery, the NFC-e queue…), as a production replica does.
 */
import { createApp } from '../src/app';
import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';
import type { HostHealth } from '../src/core/db/host-pool';
import { transactionRetries } from '../src/core/db/transaction';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { closeBatchingPool, strayStatements } from '../src/core/db/batching-query-runner';

(async () => {
  await openDatabase();
  const pool = (dataSource.driver as unknown as { pool?: { health?: () => HostHealth[] } }).pool;
  // The plan is the configured one, but this process runs with NODE_ENV=test, where the recovery
  // workers (the NF-e recovery pass, the NFC-e queue that takes a note left SIGNED) are off by default:
  // they are what a production replica runs, so they run here too.
  const { backgroundWorkers, configuredPlan } = await import('../src/workers');
  const workers = process.env.GALERA_REPLICA_WORKERS === '1' ? backgroundWorkers({ ...configuredPlan(), recovery: true }) : [];
  const { startWorkers, stopWorkers } = await import('../src/core/worker');
  process.on('message', (m: { id: number }) =>
    process.send?.({
      id: m.id,
      retries: transactionRetries.count,
      retriesAtCommit: transactionRetries.atCommit,
      strays: strayStatements.count,
      hosts: pool?.health?.() ?? [],
      workers: workers.map((w) => ({ name: w.name, state: w.state, ...w.stats() })),
    }),
  );
  startWorkers(workers);
  // PORT 0 (the suite's default): a port the kernel knows free. A fixed port can be held by any socket
  // on the box, a client's ephemeral port included (they are drawn from 32768–60999); and express 5
  // calls listen's callback with the error too, so a replica once printed LISTENING on a port it never
  // got, its IPC answering and every request refused (docs/scale-out.md, "the replica that stops answering").
  const server = createApp().listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  server.once('listening', () => {
    const address = server.address();
    console.log(`LISTENING ${typeof address === 'object' && address ? address.port : ''}`);
  });
  server.once('error', (err) => {
    console.error(`replica failed to listen: ${err.message}`);
    process.exit(1);
  });
  // What happens to the listener and its connections, on stderr (kept whole by the suite, support.ts).
  const note = (what: string, extra: Record<string, unknown> = {}) =>
    process.stderr.write(`${new Date().toISOString()} ${what} ${JSON.stringify(extra)}\n`);
  server.on('error', (err) => note('server error', { err: err.message }));
  server.on('close', () => note('server closed'));
  server.on('clientError', (err: Error & { code?: string }) => note('client error', { code: err.code, err: err.message }));
  process.on('warning', (w) => note('process warning', { w: w.message }));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    process.disconnect?.();
    server.close(
      () =>
        void stopWorkers(workers)
          .then(closeSequencePool)
          .then(closeBatchingPool)
          .then(() => dataSource.destroy())
          .finally(() => process.exit(0)),
    );
  });
})().catch((err) => {
  console.error(`replica failed to start: ${(err as Error).message}`);
  process.exit(1);
});
