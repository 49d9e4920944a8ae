import type { EntityManager } from 'typeorm';
import { sqlTime } from '../../core/db/sql-time';
import { encodeId } from '../../core/hashids';
import type { PendingDocument } from '../fiscal-periods';
import { NFCE_CANCEL_WINDOW_MINUTES } from './cancel.service';
import { NfceDocument } from './entities/nfce-document.entity';

/*
 * The filial's NFC-e (model 65) of a month for the fiscal close (issue 47): what is still inside a legal
 * window — cancellable within the UF's minutes, offline notes not transmitted, answers not in, online
 * attempts whose substitution (110112) or voiding is not settled. A note belongs to the month of its dhEmi.
 */
export async function pendingNotesOfMonth(em: EntityManager, companyId: number, filialId: number, uf: string, range: { from: string; to: string }, now: Date): Promise<PendingDocument[]> {
  const minutes = NFCE_CANCEL_WINDOW_MINUTES[uf] ?? NFCE_CANCEL_WINDOW_MINUTES.default;
  const at = (t: string) => sqlTime(new Date(t.replace(' ', 'T') + 'Z'));
  const notes = await em
    .createQueryBuilder(NfceDocument, 'n')
    .select(['n.id', 'n.series', 'n.number', 'n.accessKey', 'n.status', 'n.authorizedAt', 'n.issuedAt', 'n.originalOutcome', 'n.onlineNumber', 'n.onlineKey'])
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.issued_at >= :from AND n.issued_at < :to AND (n.status IN (:...statuses) OR n.original_outcome = :pending)', {
      companyId,
      filialId,
      from: at(range.from),
      to: at(range.to),
      statuses: ['SIGNED', 'CONTINGENCY', 'AUTHORIZED'],
      pending: 'PENDING',
    })
    .orderBy('n.series')
    .addOrderBy('n.number')
    .getMany();
  const out: PendingDocument[] = [];
  for (const n of notes) {
    const base = { model: 65, series: n.series, number: n.number, accessKey: n.accessKey, resource: { type: 'nfce' as const, id: encodeId('nfce', n.id) } };
    if (n.status === 'SIGNED') out.push({ ...base, kind: 'AWAITING_AUTHORITY', until: null, reason: 'NFC-e signed and sent, the authority’s answer is not in' });
    if (n.status === 'CONTINGENCY') out.push({ ...base, kind: 'CONTINGENCY_NOT_TRANSMITTED', until: null, reason: 'NFC-e issued offline (tpEmis 9), not yet transmitted' });
    if (n.status === 'AUTHORIZED') {
      const until = new Date((n.authorizedAt ?? n.issuedAt).getTime() + minutes * 60_000);
      if (until > now) out.push({ ...base, kind: 'NFCE_CANCELLABLE', until, reason: `NFC-e authorized less than ${minutes} minutes ago: it may still be cancelled` });
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
