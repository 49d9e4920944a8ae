import { parseNfe, renderDanfe } from '../nfe';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';

/** The DANFE of an authorized (or cancelled) outbound NF-e, drawn by the NF-e module's renderer from the stored nfeProc. */
export async function invoiceDanfe(doc: OutboundNfe): Promise<Buffer> {
  const nfe = await parseNfe(gunzipText(doc.procXmlGz!));
  return renderDanfe({ nfe, cancelled: doc.status === 'CANCELLED' });
}
