/*
 * The local tax authority's front door (development and the demo): src/main.ts starts it beside the
 * API. No module depends on it; tests reach its parts directly.
 */
export { startLocalAuthority } from './local-authority';
