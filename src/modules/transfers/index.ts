/*
 * The transfers module's front door: its routes for the composition root (src/modules/index.ts).
 */
export { transferRoutes } from './transfers.router';
