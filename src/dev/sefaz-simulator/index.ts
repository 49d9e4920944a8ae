/*
 * The local tax authority's front door (development and the demo). Not a production module: it lives
 * in src/dev, and src/main.ts loads it only when SEFAZ_SIMULATOR is on (never in production by
 * default); while it runs, POST /settings/filial/:filialId/simulator (emission-setup) attaches filiais
 * to it. Tests reach its parts directly.
 */
export { startLocalAuthority, useLocalAuthority } from './local-authority';
