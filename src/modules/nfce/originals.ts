import { EntityManager, In } from 'typeorm';
import { gunzipText } from '../outbound-nfe';
import { NfceDocument } from './entities/nfce-document.entity';

/** The AUTHORIZED NFC-e of a sale (its nfeProc), the original of a customer's devolução; null when none. */
export async function authorizedNoteOfSale(
  companyId: number,
  salesOrderId: number,
  em: EntityManager,
): Promise<{ noteId: number; accessKey: string; xml: string } | null> {
  const doc = await em.findOne(NfceDocument, { where: { companyId, salesOrderId, status: 'AUTHORIZED' } });
  if (!doc?.procXmlGz) return null;
  return { noteId: doc.id, accessKey: doc.accessKey, xml: gunzipText(doc.procXmlGz) };
}

/** A sale's NFC-e not authorized yet (SIGNED, in offline CONTINGENCY, REJECTED to be corrected): a devolução of its units waits for it. */
export async function pendingNotesOfSales(
  companyId: number,
  salesOrderIds: number[],
  em: EntityManager,
): Promise<{ noteId: number; accessKey: string; series: number; number: number; status: string }[]> {
  if (!salesOrderIds.length) return [];
  const rows = await em.find(NfceDocument, {
    where: { companyId, salesOrderId: In(salesOrderIds), status: In(['SIGNED', 'CONTINGENCY', 'REJECTED']) },
    select: { id: true, accessKey: true, series: true, number: true, status: true },
    order: { id: 'ASC' },
  });
  return rows.map((r) => ({ noteId: r.id, accessKey: r.accessKey, series: r.series, number: r.number, status: r.status }));
}

/** The NFC-e of sales (any status), for the cash session's X and Z reports and its cancelled sales. */
export async function notesOfSales(
  companyId: number,
  salesOrderIds: number[],
  em: EntityManager,
): Promise<
  {
    noteId: number;
    salesOrderId: number;
    accessKey: string;
    series: number;
    number: number;
    status: string;
    emissionType: number;
    total: NfceDocument['total'];
  }[]
> {
  const out = [];
  // Bounded IN lists: a long day has hundreds of sales.
  for (let i = 0; i < salesOrderIds.length; i += 500) {
    const rows = await em.find(NfceDocument, {
      where: { companyId, salesOrderId: In(salesOrderIds.slice(i, i + 500)) },
      select: { id: true, salesOrderId: true, accessKey: true, series: true, number: true, status: true, emissionType: true, total: true },
      order: { id: 'ASC' },
    });
    out.push(
      ...rows.map((r) => ({
        noteId: r.id,
        salesOrderId: r.salesOrderId,
        accessKey: r.accessKey,
        series: r.series,
        number: r.number,
        status: r.status,
        emissionType: r.emissionType,
        total: r.total,
      })),
    );
  }
  return out;
}
