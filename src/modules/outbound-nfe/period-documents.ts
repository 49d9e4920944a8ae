import { In } from 'typeorm';
import type { EntityManager } from 'typeorm';

import { sqlTime } from '../../core/db/sql-time';
import { encodeId } from '../../core/hashids';
import type { PendingDocument } from '../fiscal-periods';
import { CANCEL_DEADLINE_HOURS } from './events.service';
import { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';

/*
 * The filial's NF-e (model 55) of a month, for the fiscal close and the accountant's package (issue 47):
 * what is still inside a legal window, and every document, event and voiding of the month with its files.
 * A document belongs to the month of its dhEmi (issued_at, America/Sao_Paulo); a voiding to the month it
 * was registered in.
 */

export interface MonthRange {
  /** UTC 'YYYY-MM-DD HH:MM:SS.mmm' of the month's first instant and of the next month's. */
  from: string;
  to: string;
}

const inMonth = (column: string) => `${column} >= :from AND ${column} < :to`;
const bounds = (r: MonthRange) => ({
  from: sqlTime(new Date(r.from.replace(' ', 'T') + 'Z')),
  to: sqlTime(new Date(r.to.replace(' ', 'T') + 'Z')),
});

/** NF-e of the month inside a legal window now: cancellable (the UF's hours), unanswered, contingency, a CC-e or voiding in flight. */
export async function pendingInvoicesOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  uf: string,
  range: MonthRange,
  now: Date,
): Promise<PendingDocument[]> {
  const hours = CANCEL_DEADLINE_HOURS[uf] ?? 24;
  const docs = await em
    .createQueryBuilder(OutboundNfe, 'n')
    .select([
      'n.id',
      'n.model',
      'n.series',
      'n.number',
      'n.accessKey',
      'n.status',
      'n.emissionType',
      'n.authorizedAt',
      'n.issuedAt',
      'n.correctionSequence',
    ])
    .where(`n.company_id = :companyId AND n.filial_id = :filialId AND ${inMonth('n.issued_at')} AND n.status IN (:...statuses)`, {
      companyId,
      filialId,
      ...bounds(range),
      statuses: ['SIGNED', 'SENT', 'AUTHORIZED'],
    })
    .orderBy('n.series')
    .addOrderBy('n.number')
    .getMany();
  const corrected = docs.filter((d) => d.correctionSequence > 0).map((d) => d.id);
  const registered = new Map<number, number>();
  if (corrected.length) {
    const rows: { id: number; seq: number }[] = await em
      .createQueryBuilder(OutboundNfeEvent, 'e')
      .select('e.outbound_nfe_id', 'id')
      .addSelect('MAX(e.sequence)', 'seq')
      .where("e.company_id = :companyId AND e.type = '110110' AND e.outbound_nfe_id IN (:...ids)", { companyId, ids: corrected })
      .groupBy('e.outbound_nfe_id')
      .getRawMany();
    for (const r of rows) registered.set(Number(r.id), Number(r.seq));
  }
  const out: PendingDocument[] = [];
  for (const d of docs) {
    const base = {
      model: d.model,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      resource: { type: 'invoice' as const, id: encodeId('invoice', d.id) },
    };
    if (d.status !== 'AUTHORIZED') {
      const contingency = d.emissionType !== 1;
      out.push({
        ...base,
        kind: contingency ? 'CONTINGENCY_NOT_TRANSMITTED' : 'AWAITING_AUTHORITY',
        until: null,
        reason: contingency ? 'NF-e issued in contingency, not yet authorized' : 'NF-e signed and sent, the authority’s answer is not in',
      });
      continue;
    }
    const until = new Date((d.authorizedAt ?? d.issuedAt).getTime() + hours * 3600_000);
    if (until > now)
      out.push({ ...base, kind: 'NFE_CANCELLABLE', until, reason: `NF-e authorized less than ${hours} h ago: it may still be cancelled` });
    if (d.correctionSequence > (registered.get(d.id) ?? 0))
      out.push({
        ...base,
        kind: 'EVENT_IN_FLIGHT',
        until: null,
        reason: `carta de correção ${d.correctionSequence} sent, not yet registered`,
      });
  }
  const voids = await em.find(InvoiceNumberVoid, { where: { companyId, filialId, status: 'PENDING' }, order: { id: 'ASC' } });
  for (const v of voids) {
    out.push({
      kind: 'EVENT_IN_FLIGHT',
      model: v.model,
      series: v.series,
      number: v.firstNumber,
      accessKey: null,
      resource: null,
      until: null,
      reason: `voiding of numbers ${v.firstNumber}–${v.lastNumber} sent, not yet answered`,
    });
  }
  return out;
}

export interface MonthInvoice {
  id: number;
  model: number;
  seriesId: number;
  series: number;
  number: number;
  accessKey: string;
  status: OutboundNfe['status'];
  emissionType: number;
  issuedAt: Date;
  total: OutboundNfe['total'];
  /** The nfeProc (signed NF-e + protNFe) as stored; null while the authority has not answered. */
  procXml: string | null;
  events: { type: string; sequence: number; protocol: string; xml: string }[];
}

export interface MonthVoid {
  id: number;
  model: number;
  seriesId: number;
  series: number;
  first: number;
  last: number;
  status: InvoiceNumberVoid['status'];
  voidedAt: Date | null;
  protocol: string | null;
  xml: string | null;
}

/**
 * The filial's model 55 documents dated in the month with their files (nfeProc, every registered event),
 * its voidings (every one not refused: a gap of the month may be covered by one of any month), and the
 * last number each série gave before the month (where the month's numbering starts).
 */
export async function invoicesOfMonth(
  em: EntityManager,
  companyId: number,
  filialId: number,
  range: MonthRange,
): Promise<{ invoices: MonthInvoice[]; voids: MonthVoid[]; lastBefore: Map<number, number> }> {
  const b = bounds(range);
  const docs = await em
    .createQueryBuilder(OutboundNfe, 'n')
    .select([
      'n.id',
      'n.model',
      'n.seriesId',
      'n.series',
      'n.number',
      'n.accessKey',
      'n.status',
      'n.emissionType',
      'n.issuedAt',
      'n.total',
      'n.procXmlGz',
    ])
    .where(`n.company_id = :companyId AND n.filial_id = :filialId AND ${inMonth('n.issued_at')}`, { companyId, filialId, ...b })
    .orderBy('n.series')
    .addOrderBy('n.number')
    .addOrderBy('n.id')
    .getMany();
  const ids = docs.map((d) => d.id);
  const events = ids.length
    ? await em.find(OutboundNfeEvent, { where: { companyId, outboundNfeId: In(ids) }, order: { type: 'ASC', sequence: 'ASC', id: 'ASC' } })
    : [];
  const voids = await em.find(InvoiceNumberVoid, {
    where: { companyId, filialId, status: In(['PENDING', 'VOIDED']) },
    order: { id: 'ASC' },
  });
  const before: { seriesId: number; last: number }[] = await em
    .createQueryBuilder(OutboundNfe, 'n')
    .select('n.series_id', 'seriesId')
    .addSelect('MAX(n.number)', 'last')
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at < :from', { companyId, filialId, from: b.from })
    .groupBy('n.series_id')
    .getRawMany();
  return {
    invoices: docs.map((d) => ({
      id: d.id,
      model: d.model,
      seriesId: d.seriesId,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      status: d.status,
      emissionType: d.emissionType,
      issuedAt: d.issuedAt,
      total: d.total,
      procXml: d.procXmlGz ? gunzipText(d.procXmlGz) : null,
      events: events
        .filter((e) => e.outboundNfeId === d.id)
        .map((e) => ({ type: e.type, sequence: e.sequence, protocol: e.protocol, xml: gunzipText(e.xmlGz) })),
    })),
    voids: voids.map((v) => ({
      id: v.id,
      model: v.model,
      seriesId: v.seriesId,
      series: v.series,
      first: v.firstNumber,
      last: v.lastNumber,
      status: v.status,
      voidedAt: v.voidedAt,
      protocol: v.protocol,
      xml: v.xmlGz ? gunzipText(v.xmlGz) : null,
    })),
    lastBefore: new Map(before.map((r) => [Number(r.seriesId), Number(r.last)])),
  };
}
