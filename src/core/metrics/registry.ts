import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { logger } from '../logger';

/*
 * The operators' metrics (GET /metrics, Prometheus text format): one registry per process. Nothing
 * here runs unless metrics are enabled (METRICS_TOKEN or METRICS_PORT): then Node's process metrics
 * are collected, every request is counted and timed (http-metrics.ts), and the gauges that need a
 * query are filled at scrape time by the collectors registered with `registerScrapeCollector`.
 */
export const registry = new Registry();

/** A collector that has not answered by then counts as failed for this scrape (Prometheus times out at 10 s). */
const COLLECTOR_TIMEOUT_MS = 5_000;

const collectors = new Map<string, () => Promise<void>>();
const collectorUp = new Gauge({
  name: 'backoffice_metrics_collector_up',
  help: 'Whether the collector answered at the last scrape (1) or failed or timed out (0); its gauges then show nothing',
  labelNames: ['collector'],
  registers: [registry],
});

/** Registers a scrape-time collector (bounded queries only); its gauges are reset when it fails. Answers its removal. */
export function registerScrapeCollector(name: string, collect: () => Promise<void>, reset: () => void): () => void {
  collectors.set(name, async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        collect(),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${COLLECTOR_TIMEOUT_MS} ms`)), COLLECTOR_TIMEOUT_MS);
        }),
      ]);
      collectorUp.set({ collector: name }, 1);
    } catch (err) {
      reset();
      collectorUp.set({ collector: name }, 0);
      logger.warn('metrics collector failed', { collector: name, err: (err as Error).message });
    } finally {
      clearTimeout(timer);
    }
  });
  return () => {
    collectors.delete(name);
    collectorUp.remove({ collector: name });
  };
}

let inFlight: Promise<unknown> | undefined;

/** Runs every collector once (concurrent scrapes share one run) and renders the registry. */
export async function scrape(): Promise<string> {
  inFlight ??= Promise.allSettled([...collectors.values()].map((c) => c())).finally(() => (inFlight = undefined));
  await inFlight;
  return registry.metrics();
}

let processMetrics = false;

/** Node's process metrics (CPU, memory, heap, event-loop delay, GC, handles), once per process. */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}
