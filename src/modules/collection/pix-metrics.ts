import { Counter } from 'prom-client';
import { registry } from '../../core/metrics';

/*
 * Pix collection metrics. Labels are bounded: the API operation (a fixed list), the outcome (ok,
 * no-answer or the HTTP status), what a webhook or re-read did with each Pix (applied, duplicate,
 * review, refund).
 */
export const pixCalls = new Counter({
  name: 'backoffice_pix_psp_calls_total',
  help: 'Calls to the Pix PSP (API Pix v2) by operation and outcome (ok, no-answer, or the HTTP status)',
  labelNames: ['operation', 'outcome'],
  registers: [registry],
});

export const pixApplied = new Counter({
  name: 'backoffice_pix_received_total',
  help: 'Pix read back from the PSP by what became of them: applied (a receipt), duplicate (already applied), review (flagged, no receipt), unmatched',
  labelNames: ['outcome'],
  registers: [registry],
});

export const pixWebhooks = new Counter({
  name: 'backoffice_pix_webhooks_total',
  help: 'Webhook callbacks from the PSP by outcome (accepted, refused: bad secret or unknown account)',
  labelNames: ['outcome'],
  registers: [registry],
});
