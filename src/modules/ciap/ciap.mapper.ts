import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { CiapAppropriation } from './entities/ciap-appropriation.entity';
import type { CiapAsset } from './entities/ciap-asset.entity';
import type { CiapPart } from './entities/ciap-part.entity';
import type { AppropriationView, AssetDetail, AssetSummary } from './ciap.service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const money = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

function assetDto(a: CiapAsset, parts: CiapPart[]) {
  const count = (status: CiapPart['status']) => parts.filter((p) => p.status === status).length;
  return {
    id: encodeId('ciap-asset', a.id),
    filialId: encodeId('filial', a.filialId),
    entryDocumentId: encodeId('entry-document', a.entryDocumentId),
    lineNumber: a.lineNumber,
    description: a.description,
    ncm: a.ncm,
    entryCfop: a.entryCfop,
    documentNumber: a.documentNumber,
    accessKey: a.accessKey,
    supplierDocument: a.supplierDocument,
    entryDate: a.entryDate,
    firstMonth: a.firstMonth,
    icms: { own: money(a.icmsOwn), st: money(a.icmsSt), freight: money(a.icmsFreight), difal: money(a.icmsDifal) },
    totalCredit: money(a.totalCredit),
    partCount: a.partCount,
    status: a.status,
    cancelledAt: iso(a.cancelledAt),
    cancelReason: a.cancelReason,
    partsAppropriated: count('APPROPRIATED'),
    partsPending: count('PENDING'),
    partsDropped: count('DROPPED'),
    credited: money(parts.reduce((s, p) => (p.credited ? s.plus(p.credited) : s), a.totalCredit.minus(a.totalCredit))),
    version: a.version,
    createdAt: a.createdAt.toISOString(),
  };
}

export const toAssetDto = (s: AssetSummary) => assetDto(s.asset, s.parts);

export const toAppropriationDto = (a: CiapAppropriation) => ({
  filialId: encodeId('filial', a.filialId),
  month: a.month,
  taxedExits: money(a.taxedExits),
  totalExits: money(a.totalExits),
  exitShare: Number(a.exitShare.toFixed(8)),
  partsTotal: money(a.partsTotal),
  credited: money(a.credited),
  partCount: a.partCount,
  source: a.source,
  createdBy: a.createdBy,
  createdAt: a.createdAt.toISOString(),
});

export const toAssetDetailDto = (d: AssetDetail) => ({
  ...assetDto(d.asset, d.parts),
  parts: d.parts.map((p) => ({
    number: p.number,
    month: p.month,
    amount: money(p.amount),
    status: p.status,
    credited: p.credited === null ? null : money(p.credited),
  })),
  appropriations: [...d.appropriations.values()].map(toAppropriationDto),
});

export const toAppropriationViewDto = (v: AppropriationView) => ({
  appropriation: toAppropriationDto(v.appropriation),
  booked: v.booked,
  revised: v.revised,
  parts: v.parts.map((p) => ({
    assetId: encodeId('ciap-asset', p.assetId),
    description: v.assets.get(p.assetId)?.description ?? '',
    number: p.number,
    amount: money(p.amount),
    credited: money(p.credited ?? 0),
  })),
});
