import { defineRoutes } from '../../core/http/route';
import * as controller from './tenancy.controller';
import * as operator from './operator.controller';
import { operatorSchemas as o } from './operator.schemas';
import { settingsSchemas as s } from './settings.schemas';
import { CompanySettings, FilialSettings, Me, OperatorCompany } from './tenancy.responses';

const SETTINGS = 'Settings';
const OPERATOR = 'Operators';
const FISCAL_DATA = ['INVALID_STATE_REGISTRATION', 'INVALID_FISCAL_DATA'];

export const tenancyRoutes = defineRoutes([
  {
    method: 'get',
    path: '/me',
    tag: 'Tenancy',
    summary: "The token's user, company and granted filiais",
    responses: { body: Me },
    handler: controller.me,
  },
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
      errors: {
        400: ['INVALID_STATE_REGISTRATION', 'INVALID_FISCAL_DATA'],
        404: ['FILIAL_NOT_FOUND'],
        409: ['STALE_VERSION'],
        422: ['UNVERIFIED_UPLOADS_PRODUCTION'],
      },
    },
    handler: controller.patchFilialSettings,
  },
  {
    method: 'post',
    path: '/operator/companies',
    tag: OPERATOR,
    summary:
      'Create a company with its filiais and their fiscal data (IE, address with IBGE code, CNAE, regime → CRT, environment): an operator token (companyId "*", scope operator), never a tenant’s',
    operator: true,
    schema: o.createCompany,
    status: 201,
    idempotent: 'own-transactions', // createTenant commits on its own (the CLI shares it)
    responses: { body: OperatorCompany, errors: { 400: FISCAL_DATA, 409: ['COMPANY_EXISTS'], 422: ['UNVERIFIED_UPLOADS_PRODUCTION'] } },
    handler: operator.createCompany,
  },
  {
    method: 'get',
    path: '/operator/companies/:companyId',
    tag: OPERATOR,
    summary: 'A company with every filial and its fiscal settings (operator token)',
    operator: true,
    schema: o.company,
    responses: { body: OperatorCompany, errors: { 404: ['COMPANY_NOT_FOUND'] } },
    handler: operator.company,
  },
  {
    method: 'post',
    path: '/operator/companies/:companyId/filiais',
    tag: OPERATOR,
    summary: 'Add a filial to a company, with its fiscal data (operator token)',
    operator: true,
    schema: o.addFilial,
    status: 201,
    idempotent: 'own-transactions',
    responses: {
      body: FilialSettings,
      errors: { 400: FISCAL_DATA, 404: ['COMPANY_NOT_FOUND'], 409: ['FILIAL_EXISTS'], 422: ['UNVERIFIED_UPLOADS_PRODUCTION'] },
    },
    handler: operator.createFilial,
  },
]);
