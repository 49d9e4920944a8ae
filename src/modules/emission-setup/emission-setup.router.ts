import { defineRoutes } from '../../core/http/route';
import * as c from './emission-setup.controller';
import { AuthoritySettings, FilialContingency, Readiness } from './emission-setup.responses';
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
    summary:
      "The filial's authority settings: environment, its UF's authorizer (own, SVAN or SVRS) and SVC, the URLs it calls (or the local simulator), séries with next numbers per model, NFC-e CSC",
    scope: 'settings:read',
    schema: s.byFilial,
    responses: { body: AuthoritySettings, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.authority,
  },
  {
    method: 'put',
    path: '/settings/filial/:filialId/authority',
    tag: TAG,
    summary:
      "Set the filial's authority URLs by hand (per environment, authorizer or SVC, and service; https) and its contingency policy (NF-e: automatic SVC or manual; NFC-e: automatic offline or none); the whole settings are replaced (audited)",
    scope: 'settings:write',
    schema: s.putAuthority,
    responses: { body: AuthoritySettings, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.putAuthority,
  },
  {
    method: 'post',
    path: '/settings/filial/:filialId/contingency',
    tag: TAG,
    summary:
      "An operator enters contingency: new NF-e go to the UF's SVC (tpEmis 6/7, the reason as xJust) until DELETE or until the authorizer's status service answers 107 again; the only way in for a MANUAL policy",
    scope: 'settings:write',
    schema: s.enterContingency,
    // enterContingency commits on its own (invoices' contingency service): the key's outcome is kept after it.
    idempotent: 'own-transactions',
    status: 201,
    responses: { body: FilialContingency, errors: { 404: ['FILIAL_NOT_FOUND'], 409: ['CONTINGENCY_ALREADY_OPEN'] } },
    handler: c.enterContingency,
  },
  {
    method: 'delete',
    path: '/settings/filial/:filialId/contingency',
    tag: TAG,
    summary: "Leave contingency: new NF-e go to the UF's authorizer again (a filial not in contingency answers 204 too)",
    scope: 'settings:write',
    schema: s.byFilial,
    status: 204,
    responses: { errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.leave,
  },
]);
