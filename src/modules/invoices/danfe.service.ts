import { parseNfe, renderDanfe } from '../nfe';
import { brasiliaDateTime } from '../sefaz';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';

/** The DANFE of an authorized (or cancelled) outbound NF-e, drawn by the NF-e module's renderer from the stored nfeProc. */
export async function invoiceDanfe(doc: OutboundNfe): Promise<Buffer> {
  const nfe = await parseNfe(gunzipText(doc.procXmlGz!));
  const cancelled = doc.status === 'CANCELLED';
  return renderDanfe({ nfe, cancelled, cancellation: cancelled ? { protocol: doc.cancelProtocol, at: doc.cancelledAt ? brasiliaDateTime(doc.cancelledAt) : null } : undefined });
}
