/*
 * The first-note setup's front door (issue 44): a filial's readiness check and authority settings,
 * read from the modules that own each piece (tenancy, sefaz, invoices, nfce, fiscal). Only its routes
 * leave; nothing depends on it.
 */
export { emissionSetupRoutes } from './emission-setup.router';
