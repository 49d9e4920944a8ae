import { defineRoutes } from '../../core/http/route';
import * as controller from './tenancy.controller';
import { settingsSchemas as s } from './settings.schemas';
import { CompanySettings, FilialSettings, Me } from './tenancy.responses';

const SETTINGS = 'Settings';

export const tenancyRoutes = defineRoutes([
  { method: 'get', path: '/me', tag: 'Tenancy', summary: "The token's user, company and granted filiais", responses: { body: Me }, handler: controller.me },
  {
    method: 'get',
    path: '/settings/company',
    tag: SETTINGS,
    summary: "The company's purchase tolerances (quantity %, price %, block or warn)",
    scope: 'settings:read',
    responses: { body: CompanySettings, errors: { 404: ['COMPANY_NOT_FOUND'] } },
    handler: controller.companySettings,
  },
  {
    method: 'patch',
    path: '/settings/company',
    tag: SETTINGS,
    summary: "Change the company's purchase tolerances (needs version; a token granting every filial)",
    scope: 'settings:write',
    schema: s.patchCompany,
    responses: { body: CompanySettings, errors: { 403: ['ALL_FILIAIS_REQUIRED'], 404: ['COMPANY_NOT_FOUND'], 409: ['STALE_VERSION'] } },
    handler: controller.patchCompanySettings,
  },
  {
    method: 'get',
    path: '/settings/filial/:filialId',
    tag: SETTINGS,
    summary: "A filial's fiscal settings: NF-e environment, auto-ciência, tax regime, negative stock, scheduled DF-e sync",
    scope: 'settings:read',
    schema: s.filial,
    responses: { body: FilialSettings, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: controller.filialSettings,
  },
  {
    method: 'patch',
    path: '/settings/filial/:filialId',
    tag: SETTINGS,
    summary: "Change a filial's fiscal settings (needs version; audited)",
    scope: 'settings:write',
    schema: s.patchFilial,
    responses: {
      body: FilialSettings,
      errors: { 400: ['INVALID_STATE_REGISTRATION', 'INVALID_FISCAL_DATA'], 404: ['FILIAL_NOT_FOUND'], 409: ['STALE_VERSION'], 422: ['UNVERIFIED_UPLOADS_PRODUCTION'] },
    },
    handler: controller.patchFilialSettings,
  },
]);
