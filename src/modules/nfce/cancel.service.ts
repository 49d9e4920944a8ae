import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { BusinessRuleError } from '../../core/errors';
import { assertPeriodOpen } from '../fiscal-periods';
import { gz, registerIssuerEvent } from '../outbound-nfe';
import { asciiText, brasiliaDateTime, IssuerEvent, TP_CANCELAMENTO } from '../authority';
import type { NfceDocument } from './entities/nfce-document.entity';
import { counterSigning, findNfce, transitionNfce } from './issue.service';
import { assertAllowed } from './nfce.state';

/*
 * Cancellation of an authorized NFC-e (event 110111) within the UF's window. The NFC-e window is
 * short and set by each UF; 30 minutes is what most apply (data, per UF, below). Past it → 422 before
 * anything is sent; the authority's own 501 maps to the same answer.
 */
export const NFCE_CANCEL_WINDOW_MINUTES: Readonly<Record<string, number>> = Object.freeze({ default: 30 });

export async function cancelNfce(ctx: TenantContext, id: number, justification: string, now = new Date()): Promise<NfceDocument> {
  const doc = await findNfce(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  assertAllowed(doc, 'cancel');
  const s = await counterSigning(doc.companyId, doc.filialId);
  const minutes = NFCE_CANCEL_WINDOW_MINUTES[s.filial.uf] ?? NFCE_CANCEL_WINDOW_MINUTES.default;
  const deadline = (doc.authorizedAt ?? doc.issuedAt).getTime() + minutes * 60_000;
  if (now.getTime() > deadline) {
    throw new BusinessRuleError(
      'CANCELLATION_DEADLINE_PASSED',
      `An NFC-e of ${s.filial.uf} may be cancelled within ${minutes} minutes of its authorization (until ${new Date(deadline).toISOString()})`,
      { deadline: new Date(deadline).toISOString(), minutes },
    );
  }
  // The note's month and today's, before anything is sent (the authority's record, once made, is always kept).
  await assertPeriodOpen(readerOf(ctx), ctx.companyId, doc.filialId, [doc.issuedAt, now]);
  const text = asciiText(justification).slice(0, 255);
  const e: IssuerEvent = {
    tpEvento: TP_CANCELAMENTO,
    cOrgao: doc.accessKey.slice(0, 2),
    tpAmb: s.tpAmb,
    cnpj: s.filial.cnpj,
    accessKey: doc.accessKey,
    at: brasiliaDateTime(now),
    sequence: 1,
    protocol: doc.protocol ?? undefined,
    text,
  };
  const { cStat, xMotivo, protocol, proc } = await registerIssuerEvent(s, e, 'cancellation');
  return transitionNfce(
    ctx,
    doc,
    'cancel',
    'CANCELLED',
    { cStat, xMotivo: xMotivo.slice(0, 255), cancelProtocol: protocol, cancelXmlGz: gz(proc) },
    'nfce.cancelled',
    { justification: text },
  );
}
