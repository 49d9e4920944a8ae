/*
 * The local tax authority's front door (development and the demo): src/main.ts starts it beside the
 * API, and its routes attach a filial to it. No module depends on it; tests reach its parts directly.
 */
export { startLocalAuthority, useLocalAuthority } from './local-authority';
export { simulatorRoutes } from './simulator.router';
