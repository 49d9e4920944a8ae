/*
 * The dfe module's front door: the inbound DF-e business — the filial's sync of the documents addressed
 * to it (distribution by NSU, by key, the XML download), its manifestation, the scheduled sync and the
 * NF-e events of batch uploads — with its routes, batch handler, gauges and worker for the composition
 * root. It stores into the inbound NF-e (nfe) and calls the authority through the filial's connection
 * (sefaz); no emission module imports it (docs/decisions/dfe-on-the-inbound-side.md). Everything else
 * in src/modules/dfe is private (docs/architecture.md, "Module seams").
 */
export { nfeEventBatchHandler } from './dfe-batch-events';
export { registerDfeScheduleMetrics } from './dfe-schedule.metrics';
export { rewindCursorPast } from './dfe-sync.service';
export { dfeRoutes } from './dfe.router';
export { DfeScheduler } from './dfe-scheduler';
