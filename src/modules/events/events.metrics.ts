import { Gauge } from 'prom-client';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { registerScrapeCollector, registry } from '../../core/metrics';
import { Backlog, BACKLOG_COUNT_CAP, unpositionedEventBacklog, webhookDeliveryBacklog } from './events.repository';

const cap = `counted up to ${BACKLOG_COUNT_CAP.toLocaleString('en')}`;

/** Event-outbox and webhook backlog, read at scrape time: no tenant in any label. */
export function registerEventMetrics(): void {
  const unpositioned = new Gauge({
    name: 'backoffice_outbox_unpositioned_events',
    help: `Committed events of companies with an active webhook subscription not yet given a stream position (${cap})`,
    registers: [registry],
  });
  const unpositionedAge = new Gauge({
    name: 'backoffice_outbox_oldest_unpositioned_age_seconds',
    help: 'Age of the oldest of those events (0 when none)',
    registers: [registry],
  });
  const deliveries = new Gauge({
    name: 'backoffice_webhook_deliveries',
    help: `Webhook deliveries of active subscriptions: pending (to be attempted) or failed (given up) (${cap})`,
    labelNames: ['status'],
    registers: [registry],
  });
  const overdue = new Gauge({
    name: 'backoffice_webhook_oldest_due_pending_seconds',
    help: 'How long the most overdue pending delivery has been due (0 when none is due)',
    registers: [registry],
  });
  const age = (b: Backlog, now: number) => (b.oldest ? Math.max(0, (now - b.oldest.getTime()) / 1000) : 0);

  registerScrapeCollector(
    'outbox',
    async () => {
      const b = await unpositionedEventBacklog(readerOf(NO_UNIT));
      unpositioned.set(b.count);
      unpositionedAge.set(age(b, Date.now()));
    },
    () => {
      unpositioned.reset();
      unpositionedAge.reset();
    },
  );
  registerScrapeCollector(
    'webhooks',
    async () => {
      const [pending, failed] = await Promise.all([
        webhookDeliveryBacklog(readerOf(NO_UNIT), 'PENDING'),
        webhookDeliveryBacklog(readerOf(NO_UNIT), 'FAILED'),
      ]);
      deliveries.set({ status: 'pending' }, pending.count);
      deliveries.set({ status: 'failed' }, failed.count);
      overdue.set(age(pending, Date.now()));
    },
    () => {
      deliveries.reset();
      overdue.reset();
    },
  );
}
