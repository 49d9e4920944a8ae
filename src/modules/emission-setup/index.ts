/*
 * The first-note setup's front door (issue 44): a filial's readiness check and authority settings,
 * read from the modules that own each piece (tenancy, sefaz, invoices, nfce, fiscal), and the
 * development route attaching a filial to the local simulator (src/dev/sefaz-simulator registers
 * itself here when it runs). Nothing in src/modules depends on it.
 */
export { emissionSetupRoutes } from './emission-setup.router';
export { simulatorRoutes } from './simulator.router';
export { registerLocalAuthority } from './local-authority';
export type { LocalAuthorityAttach } from './local-authority';
