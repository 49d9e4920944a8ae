import { registerEventMetrics } from './events';
import { registerCashSessionMetrics } from './cash-sessions';
import { registerCertificateMetrics, registerDfeScheduleMetrics } from './sefaz';

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
