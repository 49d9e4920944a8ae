import { Gauge } from 'prom-client';
import { encodeId } from '../../core/hashids';
import { registerScrapeCollector, registry } from '../../core/metrics';
import { filialsWithDfeSync } from '../tenancy';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { scheduleSummaries } from './dfe-schedule.repository';

/** Filiais named one by one (by hashid) in the per-filial gauges: the worst ones, at most this many. */
export const WORST_FILIAIS = 20;

/*
 * The scheduled DF-e sync as operators see it, read at scrape time from `sefaz_dfe_schedule`
 * (one row per filial) for the filiais the scheduler runs (sync on, filial and company active).
 * Aggregates carry no tenant at all; the per-filial gauges name only the worst filiais, by their
 * public hashid (what the API and its logs show), never a CNPJ, a name or the company.
 */
export function registerDfeScheduleMetrics(): void {
  const filiais = new Gauge({
    name: 'backoffice_dfe_sync_filiais',
    help: 'Filiais with the scheduled DF-e sync on, by the outcome of their last run (NEVER_RUN: none yet)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const states = new Gauge({
    name: 'backoffice_dfe_sync_filiais_in_state',
    help: 'Filiais with the sync on that are: running (a replica holds the lease), due (waiting for a replica), failing (last runs failed)',
    labelNames: ['state'],
    registers: [registry],
  });
  const oldestDue = new Gauge({
    name: 'backoffice_dfe_sync_oldest_due_seconds',
    help: 'How long the most overdue filial has been due without a replica running it (0 when none is due)',
    registers: [registry],
  });
  const filialErrors = new Gauge({
    name: 'backoffice_dfe_sync_filial_consecutive_errors',
    help: `Consecutive failed runs of the ${WORST_FILIAIS} filiais failing most, by filial hashid`,
    labelNames: ['filial'],
    registers: [registry],
  });
  const all = [filiais, states, oldestDue, filialErrors];

  registerScrapeCollector(
    'dfe_sync',
    async () => {
      const [on, rows] = await Promise.all([filialsWithDfeSync(readerOf(NO_UNIT)), scheduleSummaries()]);
      const enabled = new Set(on.map((f) => `${f.companyId}:${f.filialId}`));
      const now = Date.now();
      const byOutcome = new Map<string, number>();
      let running = 0;
      let due = 0;
      let oldest = now;
      const failing: { filialId: number; errors: number }[] = [];
      for (const r of rows) {
        if (!enabled.has(`${r.companyId}:${r.filialId}`)) continue;
        const outcome = r.lastOutcome ?? 'NEVER_RUN';
        byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
        const leased = r.leaseUntil !== null && r.leaseUntil.getTime() > now;
        if (leased) running++;
        else if (r.nextRunAt.getTime() <= now) {
          due++;
          oldest = Math.min(oldest, r.nextRunAt.getTime());
        }
        if (r.consecutiveErrors > 0) failing.push({ filialId: r.filialId, errors: r.consecutiveErrors });
      }
      for (const g of all) g.reset();
      for (const [outcome, n] of byOutcome) filiais.set({ outcome }, n);
      states.set({ state: 'running' }, running);
      states.set({ state: 'due' }, due);
      states.set({ state: 'failing' }, failing.length);
      oldestDue.set((now - oldest) / 1000);
      failing.sort((a, b) => b.errors - a.errors || a.filialId - b.filialId);
      for (const f of failing.slice(0, WORST_FILIAIS)) filialErrors.set({ filial: encodeId('filial', f.filialId) }, f.errors);
    },
    () => all.forEach((g) => g.reset()),
  );
}
