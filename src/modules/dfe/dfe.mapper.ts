import zlib from 'node:zlib';
import { encodeId } from '../../core/hashids';
import { toInboundDto } from '../inbound-nfe';
import { type DfeLog, type SefazCertificate, toCertificateDto } from '../sefaz';
import type { SyncResult } from './dfe-sync.service';
import type { DfeState } from './entities/dfe-state.entity';
import type { DownloadResult, KeyQueryResult } from './key-query.service';
import type { ManifestResult } from './manifestation.service';
import type { ConsultationResult } from './protocol-consultation.service';

/** Response shapes of the DF-e routes (dfe.responses.ts); the certificate inside the state is sefaz's. */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export const toSyncDto = (r: SyncResult) => ({
  received: r.received,
  ultNSU: r.ultNSU,
  maxNSU: r.maxNSU,
  cStat: r.cStat,
  xMotivo: r.xMotivo,
  nextAllowedAt: iso(r.nextAllowedAt),
  calls: r.calls,
  stored: { summaries: r.summaries, documents: r.documents, events: r.events, cancellations: r.cancellations },
  gaps: { filled: r.gapsFilled, pendingNsus: r.pendingGapNsus },
  skipped: r.skipped,
});

export const toKeyQueryDto = (r: KeyQueryResult) => ({
  cStat: r.cStat,
  xMotivo: r.xMotivo,
  received: r.summary.received,
  inbound: r.inbound ? toInboundDto(r.inbound) : null,
});

export const toManifestDto = (r: ManifestResult) => ({
  cStat: r.cStat,
  xMotivo: r.xMotivo,
  protocol: r.protocol,
  registeredAt: r.registeredAt,
  alreadyRegistered: r.alreadyRegistered,
  inbound: toInboundDto(r.inbound),
});

export const toDownloadDto = (r: DownloadResult) => ({
  downloaded: r.downloaded,
  cStat: r.cStat,
  xMotivo: r.xMotivo,
  ciencia: r.ciencia
    ? { cStat: r.ciencia.cStat, xMotivo: r.ciencia.xMotivo, protocol: r.ciencia.protocol, alreadyRegistered: r.ciencia.alreadyRegistered }
    : null,
  inbound: toInboundDto(r.inbound),
});

export function toStateDto(
  filialId: number,
  s: DfeState | null,
  endpoints: { distUrl: string; eventUrl: string; label: string },
  certificate: SefazCertificate | null,
) {
  return {
    filialId: encodeId('filial', filialId),
    ultNSU: s?.ultNsu ?? '000000000000000',
    maxNSU: s?.maxNsu ?? '000000000000000',
    lastCStat: s?.lastCStat ?? null,
    lastXMotivo: s?.lastXMotivo ?? null,
    lastSyncAt: iso(s?.lastSyncAt),
    nextAllowedAt: iso(s?.nextAllowedAt),
    pendingGaps: s?.pendingGaps ?? [],
    syncRunning: !!s?.leaseUntil && new Date(s.leaseUntil).getTime() > Date.now(),
    endpoints: { label: endpoints.label, distribution: endpoints.distUrl, events: endpoints.eventUrl },
    certificate: certificate ? toCertificateDto(certificate) : null,
  };
}

const gunzip = (b: Buffer | null) => (b ? zlib.gunzipSync(Buffer.from(b)).toString('utf8') : null);

export const toLogDto = (l: DfeLog, envelopes: boolean) => ({
  at: iso(l.createdAt),
  service: l.service,
  operation: l.operation,
  endpoint: l.endpoint,
  attempt: l.attempt,
  httpStatus: l.httpStatus,
  cStat: l.cStat,
  xMotivo: l.xMotivo,
  error: l.error,
  durationMs: l.durationMs,
  ...(envelopes ? { request: gunzip(l.requestGz), response: gunzip(l.responseGz) } : {}),
});

/** consultar-protocolo: what the authority said of an inbound key, and the record as it now stands. */
export const toInboundConsultationDto = (r: ConsultationResult) => ({
  outcome: r.answer.outcome,
  cStat: r.answer.cStat,
  xMotivo: r.answer.xMotivo,
  protocol: r.answer.protocol,
  inbound: toInboundDto(r.inbound),
});
