import { defineRoutes } from '../../core/http/route';
import * as c from './emission-setup.controller';
import { AuthoritySettings, Readiness } from './emission-setup.responses';
import { setupSchemas as s } from './emission-setup.schemas';

const TAG = 'First note';

export const emissionSetupRoutes = defineRoutes([
  {
    method: 'get',
    path: '/settings/filial/:filialId/readiness',
    tag: TAG,
    summary:
      'What the filial lacks before its first NF-e / NFC-e: certificate, IE, address, CRT, série, the authority it reaches, CSC, tax rules — each check with its status, message and the route that sets it',
    scope: 'settings:read',
    schema: s.byFilial,
    responses: { body: Readiness, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.readiness,
  },
  {
    method: 'get',
    path: '/settings/filial/:filialId/authority',
    tag: TAG,
    summary: "The filial's authority settings: environment, its UF's authorizer (own, SVAN or SVRS) and SVC, the URLs it calls (or the local simulator), séries with next numbers per model, NFC-e CSC",
    scope: 'settings:read',
    schema: s.byFilial,
    responses: { body: AuthoritySettings, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.authority,
  },
]);
