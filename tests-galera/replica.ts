/*
 * One service replica of the Galera suite: the API on PORT over the database of DB_URL (one node, or
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
  process.on('message', (m: { id: number }) =>
    process.send?.({
      id: m.id,
      retries: transactionRetries.count,
      retriesAtCommit: transactionRetries.atCommit,
      strays: strayStatements.count,
      hosts: pool?.health?.() ?? [],
    }),
  );
  const workers = process.env.GALERA_REPLICA_WORKERS === '1' ? (await import('../src/workers')).backgroundWorkers() : [];
  const { startWorkers, stopWorkers } = await import('../src/core/worker');
  startWorkers(workers);
  const server = createApp().listen(Number(process.env.PORT), '127.0.0.1', () => console.log('LISTENING'));
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
