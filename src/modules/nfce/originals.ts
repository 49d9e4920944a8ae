import { EntityManager, In } from 'typeorm';
import { gunzipText } from '../invoices';
import { NfceDocument } from './entities/nfce-document.entity';

/** The AUTHORIZED NFC-e of a sale (its nfeProc), the original of a customer's devolução; null when none. */
export async function authorizedNoteOfSale(companyId: number, salesOrderId: number, em: EntityManager): Promise<{ noteId: number; accessKey: string; xml: string } | null> {
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
