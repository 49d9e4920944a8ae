import { Counter } from 'prom-client';
import { registry } from '../../core/metrics';

/* Counters of collection (GET /metrics). */
export const collectionMetrics = {
  boletos: new Counter({
    name: 'backoffice_collection_boletos_issued_total',
    help: 'Boletos issued, by bank',
    labelNames: ['bank'],
    registers: [registry],
  }),
  remittances: new Counter({
    name: 'backoffice_collection_remittances_total',
    help: 'Remessa files built, by bank',
    labelNames: ['bank'],
    registers: [registry],
  }),
  occurrences: new Counter({
    name: 'backoffice_collection_return_occurrences_total',
    help: 'Retorno occurrences read, by bank and outcome (APPLIED, REFUSED, FLAGGED, UNKNOWN, IGNORED, DUPLICATE)',
    labelNames: ['bank', 'outcome'],
    registers: [registry],
  }),
};
