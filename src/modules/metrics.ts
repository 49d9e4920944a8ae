import { registerEventMetrics } from './events';
import { registerCashSessionMetrics } from './cash-sessions';
import { registerDfeScheduleMetrics } from './dfe';
import { registerCertificateMetrics } from './sefaz';

let registered = false;

/** The modules' scrape-time gauges (GET /metrics), registered once per process. */
export function registerModuleMetrics(): void {
  if (registered) return;
  registered = true;
  registerEventMetrics();
  registerDfeScheduleMetrics();
  registerCertificateMetrics();
  registerCashSessionMetrics();
}
