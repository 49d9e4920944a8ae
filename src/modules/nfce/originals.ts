import type { EntityManager } from 'typeorm';
import { gunzipText } from '../invoices';
import { NfceDocument } from './entities/nfce-document.entity';

/** The AUTHORIZED NFC-e of a sale (its nfeProc), the original of a customer's devolução; null when none. */
export async function authorizedNoteOfSale(companyId: number, salesOrderId: number, em: EntityManager): Promise<{ noteId: number; accessKey: string; xml: string } | null> {
  const doc = await em.findOne(NfceDocument, { where: { companyId, salesOrderId, status: 'AUTHORIZED' } });
  if (!doc?.procXmlGz) return null;
  return { noteId: doc.id, accessKey: doc.accessKey, xml: gunzipText(doc.procXmlGz) };
}
