import { Gauge } from 'prom-client';
import { systemContext } from '../../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../../core/db/transaction';
import { encodeId } from '../../../core/hashids';
import { registerScrapeCollector, registry } from '../../../core/metrics';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { Worker } from '../../../core/worker';
import { SefazCertificate } from '../entities/sefaz-certificate.entity';

/*
 * A1 certificates last a year and a filial that lets one expire stops issuing at once. Operators see
 * the count by window (metric); each certificate announces `nfe.certificate.expiring` once as it
 * crosses 30, 15 and 7 days (`expiry_alerted_days` remembers the last threshold; a replaced certificate
 * starts again), so a webhook or the e-mail of the tenant's integration can warn in time.
 */

export const EXPIRY_THRESHOLDS = [30, 15, 7] as const;
const DAY = 86_400_000;

export const daysLeft = (validTo: Date, now: Date) => Math.floor((new Date(validTo).getTime() - now.getTime()) / DAY);

/** The smallest threshold a certificate with `days` left has reached (null: more than 30 days left). */
export function thresholdOf(days: number): number | null {
  let reached: number | null = null;
  for (const t of EXPIRY_THRESHOLDS) if (days <= t) reached = t;
  return reached;
}

/**
 * Publishes the events due now across tenants; answers how many. Conditional on the threshold the row
 * had, so two replicas running it at once announce each threshold once.
 */
export async function announceExpiringCertificates(now = new Date()): Promise<number> {
  const limit = new Date(now.getTime() + (EXPIRY_THRESHOLDS[0] + 1) * DAY);
  const rows = await readerOf(NO_UNIT)
    .createQueryBuilder(SefazCertificate, 'c')
    .select(['c.id', 'c.companyId', 'c.filialId', 'c.validTo', 'c.expiryAlertedDays', 'c.fingerprint'])
    .where('c.valid_to <= :limit', { limit })
    .orderBy('c.id', 'ASC')
    .getMany();
  let announced = 0;
  for (const c of rows) {
    const days = daysLeft(c.validTo, now);
    const threshold = thresholdOf(days);
    if (threshold === null || (c.expiryAlertedDays !== null && c.expiryAlertedDays <= threshold)) continue;
    const done = await inTransaction(NO_UNIT, async (em) => {
      const r = await em
        .createQueryBuilder()
        .update(SefazCertificate)
        .set({ expiryAlertedDays: threshold })
        .where('id = :id AND company_id = :companyId AND fingerprint = :fp AND (expiry_alerted_days IS NULL OR expiry_alerted_days > :t)', {
          id: c.id,
          companyId: c.companyId,
          fp: c.fingerprint,
          t: threshold,
        })
        .execute();
      if (!r.affected) return false;
      await publishEvent(em, systemContext(c.companyId, 'certificate-expiry'), {
        type: 'nfe.certificate.expiring',
        filialId: c.filialId,
        aggregateType: 'sefaz-certificate',
        aggregateId: c.id,
        data: {
          filialId: encodeId('filial', c.filialId),
          threshold,
          daysLeft: days,
          validTo: new Date(c.validTo).toISOString(),
          fingerprint: c.fingerprint,
        },
      });
      return true;
    });
    if (done) announced++;
  }
  return announced;
}

/** Runs announceExpiringCertificates at start and then every `intervalMs` (src/workers.ts). */
export class CertificateExpiryWatcher {
  private w: Worker | null = null;

  worker(intervalMs = 3600_000): Worker {
    if (!this.w || this.w.state === 'stopped')
      this.w = new Worker({ name: 'certificate-expiry', intervalMs, runAtStart: true, run: () => announceExpiringCertificates() });
    return this.w;
  }

  start(intervalMs = 3600_000): void {
    this.worker(intervalMs).start();
  }

  async stop(): Promise<void> {
    await this.w?.stop();
  }
}

/** backoffice_sefaz_certificates{window}: certificates expired, and within 7, 15 and 30 days (cumulative windows). */
export function registerCertificateMetrics(): void {
  const gauge = new Gauge({
    name: 'backoffice_sefaz_certificates',
    help: 'Filiais’ A1 certificates by expiry window: expired, or expiring within 7, 15 or 30 days (each window includes the shorter ones), and all',
    labelNames: ['window'],
    registers: [registry],
  });
  registerScrapeCollector(
    'sefaz_certificates',
    async () => {
      const rows = await readerOf(NO_UNIT).find(SefazCertificate, { select: { id: true, validTo: true } });
      const now = new Date();
      const counts = { expired: 0, '7d': 0, '15d': 0, '30d': 0, all: rows.length };
      for (const r of rows) {
        const days = daysLeft(r.validTo, now);
        if (new Date(r.validTo).getTime() <= now.getTime()) counts.expired++;
        else {
          if (days <= 7) counts['7d']++;
          if (days <= 15) counts['15d']++;
          if (days <= 30) counts['30d']++;
        }
      }
      gauge.reset();
      for (const [window, n] of Object.entries(counts)) gauge.set({ window }, n);
    },
    () => gauge.reset(),
  );
}
