import type { Server } from 'node:http';
import { config } from './core/config';
import { invoicesConfig } from './core/config/invoices';
import { nfeConfig } from './core/config/nfe';
import { sefazConfig } from './core/config/sefaz';
import { closeBatchingPool } from './core/db/batching-query-runner';
import { dataSource } from './core/db/data-source';
import { closeSequencePool } from './core/sequence/sequence.service';
import { stopWorkers, Worker } from './core/worker';
import { WebhookDispatcher } from './modules/events';
import { invoiceDeliveryWorker, invoiceRecoveryWorker } from './modules/outbound-nfe';
import { nfceQueueWorker } from './modules/nfce';
import { batchRunner, DeadlineTracker } from './modules/inbound-nfe';
import { DfeScheduler } from './modules/dfe';
import { CertificateExpiryWatcher } from './modules/sefaz';
import { spedWorker } from './modules/sped';

/*
 * The composition root's list of background workers (core/worker.ts): every periodic job of the
 * process is here, started by src/main.ts after the HTTP server listens and stopped by shutdown()
 * before the database closes. Which ones run is configuration.
 */

export interface WorkerPlan {
  /** WEBHOOK_DISPATCH_INTERVAL_MS; 0: webhooks are dispatched elsewhere. */
  webhookDispatchMs: number;
  /** DFE_SCHEDULER. */
  dfeScheduler: boolean;
  /** NFE_BATCH_WORKER: batch jobs a stopped or killed process left behind are resumed once their lease expires. */
  nfeBatch: boolean;
  /** NFE_DEADLINE_ALERTS. */
  manifestationDeadlines: boolean;
  /** INVOICE_RECOVERY: NF-e a crash left SIGNED/SENT settled, the NFC-e contingency queue, the NF-e emails due (leases). */
  recovery: boolean;
}

export function configuredPlan(): WorkerPlan {
  return {
    webhookDispatchMs: config.webhookDispatchIntervalMs,
    dfeScheduler: sefazConfig.scheduler.enabled,
    nfeBatch: nfeConfig.batch.worker,
    manifestationDeadlines: nfeConfig.deadlines.tracker,
    recovery: invoicesConfig.recovery.enabled,
  };
}

export function backgroundWorkers(plan: WorkerPlan = configuredPlan()): Worker[] {
  const workers: Worker[] = [];
  if (plan.webhookDispatchMs > 0) workers.push(new WebhookDispatcher().worker(plan.webhookDispatchMs));
  if (plan.dfeScheduler) workers.push(new DfeScheduler().worker(sefazConfig.scheduler.tickMs));
  // Certificates crossing 30/15/7 days before expiry are announced (nfe.certificate.expiring).
  workers.push(new CertificateExpiryWatcher().worker(3600_000));
  // EFD ICMS/IPI jobs a stopped process left (QUEUED, or RUNNING past their lease); a request starts its own at once.
  workers.push(spedWorker());
  if (plan.nfeBatch) workers.push(batchRunner.worker(Math.max(5_000, nfeConfig.batch.leaseMs / 4)));
  if (plan.manifestationDeadlines) workers.push(new DeadlineTracker().worker(nfeConfig.deadlines.intervalMs));
  if (plan.recovery)
    workers.push(
      invoiceRecoveryWorker(invoicesConfig.recovery.tickMs),
      nfceQueueWorker(invoicesConfig.recovery.nfceTickMs),
      // Emails of authorized NF-e, after the verdict's commit (docs/decisions/nfe-delivery-after-commit.md).
      invoiceDeliveryWorker(invoicesConfig.recovery.deliveryTickMs),
    );
  return workers;
}

export interface RunningService {
  server: Server;
  metricsServer?: Server;
  /** The local simulator of a development start. */
  authority?: { stop(): Promise<void> } | null;
  workers: readonly Worker[];
}

async function closeDatabase(): Promise<void> {
  await Promise.allSettled([closeSequencePool(), closeBatchingPool(), dataSource.destroy()]);
}

/**
 * SIGINT/SIGTERM: no new requests (the server closes once those under way end), every worker stopped
 * with its running tick awaited (and its own teardown: webhook attempts drained, leases released),
 * then the pools and the database.
 */
export async function shutdown(running: RunningService, close: () => Promise<void> = closeDatabase): Promise<void> {
  const authority = running.authority?.stop().catch(() => undefined);
  running.metricsServer?.close();
  await new Promise<void>((resolve) => running.server.close(() => resolve()));
  await stopWorkers(running.workers);
  await authority;
  await close();
}
