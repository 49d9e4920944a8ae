import { parseNfe } from '../fiscal-xml';
import { renderDanfe } from '../danfe';
import { brasiliaDateTime } from '../authority';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { logoOfCompany } from './logo.service';

/** The DANFE of an authorized (or cancelled) outbound NF-e, drawn by the NF-e module's renderer from the stored nfeProc, with the company's logo when it has one. */
export async function invoiceDanfe(doc: OutboundNfe): Promise<Buffer> {
  const [nfe, logo] = await Promise.all([parseNfe(gunzipText(doc.procXmlGz!)), logoOfCompany(readerOf(NO_UNIT), doc.companyId)]);
  const cancelled = doc.status === 'CANCELLED';
  return renderDanfe({
    nfe,
    cancelled,
    logo,
    cancellation: cancelled ? { protocol: doc.cancelProtocol, at: doc.cancelledAt ? brasiliaDateTime(doc.cancelledAt) : null } : undefined,
  });
}
