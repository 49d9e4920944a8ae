import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { gunzipText } from '../invoices';
import type { NfceDocument } from './entities/nfce-document.entity';
import { findNfce } from './issue.service';

/** One NFC-e of the tenant (404 otherwise) in a filial the token grants (403 otherwise). */
export async function getNfce(ctx: TenantContext, id: number): Promise<NfceDocument> {
  const doc = await findNfce(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  return doc;
}

/** The nfeProc once authorized, else the signed NFe as stored (what a contingency DANFE was printed from). */
export async function nfceXml(ctx: TenantContext, id: number): Promise<{ doc: NfceDocument; xml: string }> {
  const doc = await getNfce(ctx, id);
  return { doc, xml: gunzipText(doc.procXmlGz ?? doc.signedXmlGz) };
}
