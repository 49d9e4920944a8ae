import { Between, EntityManager } from 'typeorm';
import { gunzipText } from '../outbound-nfe';
import type { CounterNotes, CounterNumber, CounterNumberFate } from '../outbound-nfe';
import { NfceDocument, NfceStatus } from './entities/nfce-document.entity';

/*
 * The invoices module's number report of a model 65 série (port counterNotes): each NFC-e holds its
 * number, and a note that went to contingency after an online attempt also holds the attempt's
 * (substitution.service.ts): pending until settled, then SUBSTITUTED (110112) or VOIDED.
 */

const FATE: Record<NfceStatus, CounterNumberFate> = {
  AUTHORIZED: 'AUTHORIZED',
  CANCELLED: 'CANCELLED',
  REJECTED: 'REJECTED',
  SIGNED: 'SIGNED',
  CONTINGENCY: 'CONTINGENCY',
};

async function numbersOf(em: EntityManager, companyId: number, seriesId: number, from: number, to: number): Promise<CounterNumber[]> {
  const select = {
    id: true,
    number: true,
    status: true,
    accessKey: true,
    onlineNumber: true,
    onlineKey: true,
    originalOutcome: true,
  } as const;
  const [own, attempts] = await Promise.all([
    em.find(NfceDocument, { where: { companyId, seriesId, number: Between(from, to) }, select }),
    em.find(NfceDocument, { where: { companyId, seriesId, onlineNumber: Between(from, to) }, select }),
  ]);
  return [
    ...own.map((d) => ({ number: d.number, fate: FATE[d.status], nfceId: d.id, accessKey: d.accessKey })),
    ...attempts.map((d) => {
      const outcome = d.originalOutcome ?? 'PENDING';
      const fate: CounterNumberFate = outcome === 'VOIDED' ? 'VOIDED' : outcome === 'SUBSTITUTED' ? 'SUBSTITUTED' : 'SUBSTITUTION_PENDING';
      return { number: d.onlineNumber!, fate, nfceId: d.id, accessKey: fate === 'VOIDED' ? null : d.onlineKey };
    }),
  ];
}

async function voidedNumberXml(em: EntityManager, companyId: number, seriesId: number, number: number): Promise<string | null> {
  const d = await em.findOne(NfceDocument, {
    where: { companyId, seriesId, onlineNumber: number, originalOutcome: 'VOIDED' },
    select: { id: true, originalXmlGz: true },
  });
  return d?.originalXmlGz ? gunzipText(d.originalXmlGz) : null;
}

export const counterNotesProvider: CounterNotes = { numbersOf, voidedNumberXml };
