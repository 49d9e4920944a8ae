import type { EntityManager } from 'typeorm';
import { sqlTime } from '../../core/db/sql-time';
import { encodeId } from '../../core/hashids';
import type { PendingDocument } from '../fiscal-periods';
import { NfeInbound } from './entities/nfe-inbound.entity';
import { decompressXml } from './xml-storage';

/*
 * NF-e addressed to the filial in a month (by dhEmi) that still wait on the filial, for the fiscal close
 * (issue 47): authorized by their issuer and never manifested (no ciência, confirmação, desconhecimento or
 * operação não realizada). The accountant's package lists them too, beside those never imported.
 */
export async function unmanifestedOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  range: { from: string; to: string },
): Promise<PendingDocument[]> {
  const at = (t: string) => sqlTime(new Date(t.replace(' ', 'T') + 'Z'));
  const rows = await em
    .createQueryBuilder(NfeInbound, 'n')
    .select(['n.id', 'n.accessKey', 'n.model', 'n.series', 'n.number', 'n.issuerName'])
    .where(
      'n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at >= :from AND n.issued_at < :to AND n.manifestation = :none AND n.authority_status = :authorized',
      {
        companyId,
        filialId,
        from: at(range.from),
        to: at(range.to),
        none: 'NONE',
        authorized: 'AUTHORIZED',
      },
    )
    .orderBy('n.issued_at')
    .addOrderBy('n.id')
    .getMany();
  return rows.map((n) => ({
    kind: 'DFE_NOT_MANIFESTED' as const,
    model: Number(n.model),
    series: n.series === null ? null : Number(n.series),
    number: n.number === null ? null : Number(n.number),
    accessKey: n.accessKey,
    resource: { type: 'nfe-inbound' as const, id: encodeId('nfe-inbound', n.id) },
    until: null,
    reason: `NF-e from ${n.issuerName} addressed to the filial, never manifested`,
  }));
}

export interface MonthReceived {
  id: number;
  accessKey: string;
  model: number;
  series: number | null;
  number: number | null;
  issuerDocument: string;
  issuerName: string;
  issuedAt: Date;
  total: NfeInbound['total'];
  authorityStatus: NfeInbound['authorityStatus'];
  manifestation: NfeInbound['manifestation'];
  importStatus: NfeInbound['importStatus'];
  /** The XML as received (its signature verifies); null for a summary whose XML never came. */
  xml: string | null;
}

/** NF-e addressed to the filial dated in the month (dhEmi), with their XML as received. */
export async function receivedOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  range: { from: string; to: string },
): Promise<MonthReceived[]> {
  const at = (t: string) => sqlTime(new Date(t.replace(' ', 'T') + 'Z'));
  const rows = await em
    .createQueryBuilder(NfeInbound, 'n')
    .select([
      'n.id',
      'n.accessKey',
      'n.model',
      'n.series',
      'n.number',
      'n.issuerDocument',
      'n.issuerName',
      'n.issuedAt',
      'n.total',
      'n.authorityStatus',
      'n.manifestation',
      'n.importStatus',
      'n.xmlGzip',
    ])
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at >= :from AND n.issued_at < :to', {
      companyId,
      filialId,
      from: at(range.from),
      to: at(range.to),
    })
    .orderBy('n.access_key')
    .getMany();
  return rows.map((n) => ({
    id: n.id,
    accessKey: n.accessKey,
    model: Number(n.model),
    series: n.series === null ? null : Number(n.series),
    number: n.number === null ? null : Number(n.number),
    issuerDocument: n.issuerDocument,
    issuerName: n.issuerName,
    issuedAt: n.issuedAt,
    total: n.total,
    authorityStatus: n.authorityStatus,
    manifestation: n.manifestation,
    importStatus: n.importStatus,
    xml: n.xmlGzip ? decompressXml(Buffer.from(n.xmlGzip)) : null,
  }));
}
