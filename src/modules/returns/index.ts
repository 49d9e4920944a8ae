/*
 * The returns module's front door: its routes for the composition root (src/modules/index.ts).
 */
export { returnRoutes } from './returns.router';
