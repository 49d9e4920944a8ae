/*
 * The CT-e module's front door: its routes and its batch-upload handler for the composition root
 * (src/modules/index.ts).
 */
export { cteBatchHandler } from './cte-batch';
export { cteRoutes } from './cte.router';
export { takenCteOfPeriod } from './period-documents';
export type { TakenCteOfPeriod } from './period-documents';
