import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { NfceConfiguration } from './entities/nfce-configuration.entity';
import type { NfceDocument } from './entities/nfce-document.entity';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toConfigurationDto = (filialId: number, c: NfceConfiguration | null, nextNumber: number | null) => ({
  filialId: encodeId('filial', filialId),
  configured: !!c,
  series: c?.series ?? null,
  nextNumber,
  qrVersion: c?.qrVersion ?? null,
  cscId: c?.cscId ?? null,
  cscConfigured: !!c?.cscToken,
  qrCodeUrl: c?.qrCodeUrl ?? null,
  consultUrl: c?.consultUrl ?? null,
  autoIssue: c?.autoIssue ?? false,
  syncTimeoutMs: c?.syncTimeoutMs ?? 3000,
  identificationThreshold: c?.identificationThreshold ? toJsonNumber(c.identificationThreshold, 'amount') : null,
  version: c?.version ?? 0,
  updatedAt: iso(c?.updatedAt ?? null),
});

export const toNfceDto = (d: NfceDocument) => ({
  id: encodeId('nfce', d.id),
  filialId: encodeId('filial', d.filialId),
  salesOrderId: encodeId('sales-order', d.salesOrderId),
  model: 65,
  series: d.series,
  number: d.number,
  accessKey: d.accessKey,
  onlineKey: d.onlineKey,
  original:
    d.onlineNumber !== null && d.onlineKey
      ? { number: d.onlineNumber, accessKey: d.onlineKey, outcome: d.originalOutcome, protocol: d.originalProtocol }
      : null,
  status: d.status,
  contingency: d.emissionType === 9,
  contingencyAt: iso(d.contingencyAt),
  contingencyReason: d.contingencyReason,
  issuedAt: iso(d.issuedAt)!,
  total: toJsonNumber(d.total, 'amount'),
  consumerDocument: d.consumerDocument,
  qrCodeUrl: d.qrCode,
  consultUrl: d.consultUrl,
  protocol: d.protocol,
  authorizedAt: iso(d.authorizedAt),
  cStat: d.cStat,
  xMotivo: d.xMotivo,
  version: d.version,
});
