/*
 * The events module's front door: its routes and scrape-time gauges for the composition root
 * (src/modules/index.ts, metrics.ts), and the webhook dispatcher src/main.ts starts.
 */
export { registerEventMetrics } from './events.metrics';
export { eventRoutes } from './events.router';
export { WebhookDispatcher } from './webhook-dispatcher';
