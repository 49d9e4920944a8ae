import type { EntityManager } from 'typeorm';
import { sqlTime } from '../../core/db/sql-time';
import { encodeId } from '../../core/hashids';
import type { PendingDocument } from '../fiscal-periods';
import { gunzipText } from '../outbound-nfe';
import { NFCE_CANCEL_WINDOW_MINUTES } from './cancel.service';
import { NfceDocument } from './entities/nfce-document.entity';

/*
 * The filial's NFC-e (model 65) of a month for the fiscal close (issue 47): what is still inside a legal
 * window — cancellable within the UF's minutes, offline notes not transmitted, answers not in, online
 * attempts whose substitution (110112) or voiding is not settled. A note belongs to the month of its dhEmi.
 */
export async function pendingNotesOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  uf: string,
  range: { from: string; to: string },
  now: Date,
): Promise<PendingDocument[]> {
  const minutes = NFCE_CANCEL_WINDOW_MINUTES[uf] ?? NFCE_CANCEL_WINDOW_MINUTES.default;
  const at = (t: string) => sqlTime(new Date(t.replace(' ', 'T') + 'Z'));
  const notes = await em
    .createQueryBuilder(NfceDocument, 'n')
    .select([
      'n.id',
      'n.series',
      'n.number',
      'n.accessKey',
      'n.status',
      'n.authorizedAt',
      'n.issuedAt',
      'n.originalOutcome',
      'n.onlineNumber',
      'n.onlineKey',
    ])
    .where(
      'n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at >= :from AND n.issued_at < :to AND (n.status IN (:...statuses) OR n.original_outcome = :pending)',
      {
        companyId,
        filialId,
        from: at(range.from),
        to: at(range.to),
        statuses: ['SIGNED', 'CONTINGENCY', 'AUTHORIZED'],
        pending: 'PENDING',
      },
    )
    .orderBy('n.series')
    .addOrderBy('n.number')
    .getMany();
  const out: PendingDocument[] = [];
  for (const n of notes) {
    const base = {
      model: 65,
      series: n.series,
      number: n.number,
      accessKey: n.accessKey,
      resource: { type: 'nfce' as const, id: encodeId('nfce', n.id) },
    };
    if (n.status === 'SIGNED')
      out.push({ ...base, kind: 'AWAITING_AUTHORITY', until: null, reason: 'NFC-e signed and sent, the authority’s answer is not in' });
    if (n.status === 'CONTINGENCY')
      out.push({
        ...base,
        kind: 'CONTINGENCY_NOT_TRANSMITTED',
        until: null,
        reason: 'NFC-e issued offline (tpEmis 9), not yet transmitted',
      });
    if (n.status === 'AUTHORIZED') {
      const until = new Date((n.authorizedAt ?? n.issuedAt).getTime() + minutes * 60_000);
      if (until > now)
        out.push({
          ...base,
          kind: 'NFCE_CANCELLABLE',
          until,
          reason: `NFC-e authorized less than ${minutes} minutes ago: it may still be cancelled`,
        });
    }
    if (n.originalOutcome === 'PENDING')
      out.push({
        ...base,
        kind: 'EVENT_IN_FLIGHT',
        number: n.onlineNumber ?? n.number,
        accessKey: n.onlineKey ?? n.accessKey,
        until: null,
        reason: 'the online attempt this offline note replaced is not settled yet (substitution 110112 or voiding)',
      });
  }
  return out;
}

export interface MonthNote {
  id: number;
  seriesId: number;
  series: number;
  number: number;
  accessKey: string;
  status: NfceDocument['status'];
  emissionType: number;
  issuedAt: Date;
  total: NfceDocument['total'];
  procXml: string | null;
  cancelProtocol: string | null;
  cancelXml: string | null;
  /** The online attempt a contingency note replaced: its number, key, how it was settled and its file (110112 or procInutNFe). */
  original: {
    number: number;
    accessKey: string | null;
    outcome: 'PENDING' | 'SUBSTITUTED' | 'VOIDED';
    protocol: string | null;
    xml: string | null;
  } | null;
}

/** The filial's NFC-e dated in the month with their files, and the last number each série gave before it. */
export async function notesOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  range: { from: string; to: string },
): Promise<{ notes: MonthNote[]; lastBefore: Map<number, number> }> {
  const at = (t: string) => sqlTime(new Date(t.replace(' ', 'T') + 'Z'));
  const where = { companyId, filialId, from: at(range.from), to: at(range.to) };
  const rows = await em
    .createQueryBuilder(NfceDocument, 'n')
    .select([
      'n.id',
      'n.seriesId',
      'n.series',
      'n.number',
      'n.accessKey',
      'n.status',
      'n.emissionType',
      'n.issuedAt',
      'n.total',
      'n.procXmlGz',
      'n.cancelProtocol',
      'n.cancelXmlGz',
      'n.onlineNumber',
      'n.onlineKey',
      'n.originalOutcome',
      'n.originalProtocol',
      'n.originalXmlGz',
    ])
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at >= :from AND n.issued_at < :to', where)
    .orderBy('n.series')
    .addOrderBy('n.number')
    .getMany();
  const before: { seriesId: number; last: number; lastOnline: number | null }[] = await em
    .createQueryBuilder(NfceDocument, 'n')
    .select('n.series_id', 'seriesId')
    .addSelect('MAX(n.number)', 'last')
    .addSelect('MAX(n.online_number)', 'lastOnline')
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at < :from', where)
    .groupBy('n.series_id')
    .getRawMany();
  return {
    notes: rows.map((n) => ({
      id: n.id,
      seriesId: n.seriesId,
      series: n.series,
      number: n.number,
      accessKey: n.accessKey,
      status: n.status,
      emissionType: n.emissionType,
      issuedAt: n.issuedAt,
      total: n.total,
      procXml: n.procXmlGz ? gunzipText(n.procXmlGz) : null,
      cancelProtocol: n.cancelProtocol,
      cancelXml: n.cancelXmlGz ? gunzipText(n.cancelXmlGz) : null,
      original:
        n.onlineNumber === null
          ? null
          : {
              number: n.onlineNumber,
              accessKey: n.onlineKey,
              outcome: n.originalOutcome ?? 'PENDING',
              protocol: n.originalProtocol,
              xml: n.originalXmlGz ? gunzipText(n.originalXmlGz) : null,
            },
    })),
    lastBefore: new Map(before.map((r) => [Number(r.seriesId), Math.max(Number(r.last), Number(r.lastOnline ?? 0))])),
  };
}
