import { Counter, Histogram } from 'prom-client';
import { registry } from '../../core/metrics';

/*
 * Every exchange with the tax authority, whatever the service (authorization, consultation, status,
 * voiding, events, DistDFe): AuthorityClient.call, the one path every SOAP call takes, reports each attempt here.
 * Labels are bounded: the service, the operation (the message sent, the DistDFe query kind or the event type), the
 * outcome, and the authority's cStat (a three-digit code; `none` when no reply was read).
 */
const duration = new Histogram({
  name: 'backoffice_sefaz_request_duration_seconds',
  help: 'Time of one attempt of a call to the tax authority (TLS, request and reply), by service and outcome (ok: an HTTP answer; error: timeout, TLS or connection failure)',
  labelNames: ['service', 'outcome'],
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
  registers: [registry],
});

const replies = new Counter({
  name: 'backoffice_sefaz_replies_total',
  help: "Attempts of calls to the tax authority by service, operation, HTTP status and the reply's cStat (none: no readable reply)",
  labelNames: ['service', 'operation', 'http_status', 'cstat'],
  registers: [registry],
});

export function observeSefazAttempt(a: {
  service: string;
  operation: string;
  httpStatus: number | null;
  cStat: string | null;
  error: string | null;
  durationMs: number;
}): void {
  duration.labels(a.service, a.error || a.httpStatus === null ? 'error' : 'ok').observe(a.durationMs / 1000);
  replies.labels(a.service, a.operation.slice(0, 20), a.httpStatus === null ? 'none' : String(a.httpStatus), a.cStat ?? 'none').inc();
}
