/*
 * The events module's front door: its routes and scrape-time gauges for the composition root
 * (src/modules/index.ts, metrics.ts).
 */
export { registerEventMetrics } from './events.metrics';
export { eventRoutes } from './events.router';
