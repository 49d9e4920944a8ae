import { Gauge } from 'prom-client';
import { NO_UNIT, queryOn, readerOf } from '../../core/db/transaction';
import { registerScrapeCollector, registry } from '../../core/metrics/registry';
import { Dec } from '../../core/decimal';

/** Scrape-time gauges: sessions open and waiting for a supervisor, and the differences they wait with. */
export function registerCashSessionMetrics(): void {
  const sessions = new Gauge({
    name: 'backoffice_cash_sessions',
    help: 'Cash sessions open and pending a supervisor’s approval, by status',
    labelNames: ['status'],
    registers: [registry],
  });
  const pending = new Gauge({
    name: 'backoffice_cash_session_pending_difference_amount',
    help: 'Sum of the absolute close differences of the sessions waiting for approval (BRL)',
    registers: [registry],
  });
  registerScrapeCollector(
    'cash_sessions',
    async () => {
      const em = readerOf(NO_UNIT);
      const rows = await queryOn<{ status: string; n: number | string }[]>(
        em,
        "SELECT status, COUNT(*) AS n FROM cash_session WHERE status IN ('OPEN', 'PENDING_APPROVAL') GROUP BY status",
      );
      for (const status of ['OPEN', 'PENDING_APPROVAL']) sessions.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      // Decimals are text on SQLite: summed here, over the (few) sessions waiting.
      const waiting = await queryOn<{ d: string | null }[]>(
        em,
        "SELECT closing_difference AS d FROM cash_session WHERE status = 'PENDING_APPROVAL' LIMIT 10000",
      );
      pending.set(Number(waiting.reduce((acc, r) => acc.plus(new Dec(r.d ?? 0).abs()), new Dec(0)).toFixed(2)));
    },
    () => {
      sessions.reset();
      pending.reset();
    },
  );
}
