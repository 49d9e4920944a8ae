/*
 * The system module's front door: its routes for the composition root (src/modules/index.ts).
 */
export { systemRoutes } from './system.router';
