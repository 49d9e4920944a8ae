/*
 * The tenancy module's front door: what other modules may use of it. The filial access check (every
 * module with a filial in its path or body runs it), the company and filial rows other modules read
 * and join to, the filial's fiscal and purchase settings, the tenant grant and creation (the demo
 * seed), and its routes for the composition root (src/modules/index.ts). Everything else in src/modules/tenancy is private
 * (docs/architecture.md, "Module seams").
 */
export { acceptFilial, assertFilialAccess, filialRead, lockFilialRow, requestFilial } from './filial-access';
export { Company } from './entities/company.entity';
export { Filial } from './entities/filial.entity';
export type { TaxRegime } from './entities/filial.entity';
export {
  activeFilialRefs,
  filialFiscalProfileReads,
  filialsWithDfeSync,
  getFilialFiscalProfile,
  getFilialFiscalSettings,
  getPurchaseTolerances,
} from './settings.service';
export type { DfeSyncFilial, PurchaseTolerances } from './settings.service';
export { tenancyRoutes } from './tenancy.router';
export { grantedTenant } from './tenant.service';
export { createTenant } from './tenant.service';
