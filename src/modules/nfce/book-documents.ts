import { Between, EntityManager, In } from 'typeorm';
import { gunzipText } from '../outbound-nfe';
import { NfceDocument, NfceStatus } from './entities/nfce-document.entity';

/* The NFC-e (65) a filial issued in a span, for the fiscal books and the EFD, with their XML as issued. */

export interface IssuedNfceOfPeriod {
  noteId: number;
  accessKey: string;
  series: number;
  number: number;
  status: NfceStatus;
  issuedAt: Date;
  xml: string;
}

/** Authorized, cancelled, and contingency notes (issued offline: they are documents already, the EFD warns they are not authorized yet). */
const BOOKED: NfceStatus[] = ['AUTHORIZED', 'CANCELLED', 'CONTINGENCY'];

export async function issuedNfceOfPeriod(
  em: EntityManager,
  companyId: number,
  filialId: number,
  from: Date,
  to: Date,
): Promise<IssuedNfceOfPeriod[]> {
  const rows = await em.find(NfceDocument, {
    where: { companyId, filialId, status: In(BOOKED), issuedAt: Between(from, to) },
    order: { series: 'ASC', number: 'ASC' },
  });
  return rows
    .filter((r) => r.issuedAt < to)
    .map((r) => ({
      noteId: r.id,
      accessKey: r.accessKey,
      series: r.series,
      number: r.number,
      status: r.status,
      issuedAt: r.issuedAt,
      xml: gunzipText(r.procXmlGz ?? r.signedXmlGz),
    }));
}
