import { defineRoutes } from '../../core/http/route';
import * as c from './simulator.controller';
import { simulatorSchemas as s } from './simulator.schemas';
import { SimulatorAttachment } from './simulator.responses';

/* Development: a filial of one's own on the local simulator (npm start / SEFAZ_SIMULATOR=true), as the demo's are. */
export const simulatorRoutes = defineRoutes([
  {
    method: 'post',
    path: '/settings/filial/:filialId/simulator',
    tag: 'First note',
    summary:
      'Development: point the filial at the local tax-authority simulator this process runs (NF-e, NFC-e, DF-e), issuing it an A1 of the simulator unless it keeps its own; 422 SIMULATOR_NOT_RUNNING in production or without SEFAZ_SIMULATOR',
    scope: 'nfe:certificate',
    schema: s.attach,
    // Attaching issues a certificate in its own transactions: the key's outcome is kept after them.
    idempotent: 'own-transactions',
    responses: { body: SimulatorAttachment, errors: { 422: ['SIMULATOR_NOT_RUNNING'] } },
    handler: c.attach,
  },
  {
    method: 'delete',
    path: '/settings/filial/:filialId/simulator',
    tag: 'First note',
    summary: "Return the filial to its UF's authorizer (the configured endpoints); its certificate stays",
    scope: 'nfe:certificate',
    schema: s.detach,
    status: 204,
    responses: {},
    handler: c.detach,
  },
]);
