import { assertFilialAccess } from '../tenancy';
import type { ActorContext, TenantContext } from '../../core/context';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { ConflictError, UpstreamError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import {
  clientOf,
  FilialSigning,
  gz,
  registerIssuerEvent,
  requestVoiding,
  VER_PROC,
  voidingRefused,
  voidingUnavailable,
} from '../outbound-nfe';
import { asciiText, brasiliaDateTime, IssuerEvent, TP_CANCELAMENTO_SUBSTITUICAO } from '../authority';
import { NfceDocument } from './entities/nfce-document.entity';
import { consultKey, counterSigning, findNfce, transitionNfce } from './issue.service';
import { assertAllowed } from './nfce.state';

/*
 * The online attempt of a note that went to offline contingency after it may have reached the
 * authority (issue.service.ts enterOfflineContingency: the offline note, the one the customer holds,
 * took a number of its own). Once the offline note is authorized, the attempt is settled by consulting
 * its key: authorized after all → cancelled by substitution (event 110112, chNFeRef = the offline
 * note's key), so the sale has one valid NFC-e; unknown to the authority → its number voided
 * (NFeInutilizacao4), so the série has no gap. The queue does it after each pass; the route does it on
 * demand (with the operator's justification).
 */

export const SUBSTITUTION_JUSTIFICATION = 'NFC-e substituida pela NFC-e emitida em contingencia off-line';
const VOID_JUSTIFICATION = 'Numero de NFC-e substituida por emissao em contingencia off-line';

export async function settleOriginal(
  ctx: ActorContext,
  doc: NfceDocument,
  justification = SUBSTITUTION_JUSTIFICATION,
  now = new Date(),
): Promise<NfceDocument> {
  if (doc.originalOutcome !== 'PENDING' || !doc.onlineKey || doc.onlineNumber === null) {
    throw new ConflictError(
      'NO_SUBSTITUTION_PENDING',
      'The NFC-e has no online attempt left to settle (it went to contingency without one, or it was settled)',
    );
  }
  // The authority accepts the substitution only of an authorized substitute.
  assertAllowed(doc, 'settle-original');
  const s = await counterSigning(doc.companyId, doc.filialId);
  const known = await consultKey(await clientOf(s, null), doc.onlineKey);
  if (known === 'UNAVAILABLE')
    throw new UpstreamError(
      'upstream_unavailable',
      'SEFAZ_UNAVAILABLE',
      'The authority did not answer the consultation of the online attempt',
    );
  if (known) {
    const text = asciiText(justification).slice(0, 255);
    const e: IssuerEvent = {
      tpEvento: TP_CANCELAMENTO_SUBSTITUICAO,
      cOrgao: doc.onlineKey.slice(0, 2),
      tpAmb: s.tpAmb,
      cnpj: s.filial.cnpj,
      accessKey: doc.onlineKey,
      at: brasiliaDateTime(now),
      sequence: 1,
      protocol: known.protocol ?? undefined,
      text,
      referencedKey: doc.accessKey,
      appVersion: VER_PROC,
    };
    const r = await registerIssuerEvent(s, e, 'substitution cancellation');
    return transitionNfce(
      ctx,
      doc,
      'settle-original',
      'AUTHORIZED',
      { originalOutcome: 'SUBSTITUTED', originalProtocol: r.protocol, originalXmlGz: gz(r.proc) },
      'nfce.original-substituted',
      {
        originalKey: doc.onlineKey,
        originalNumber: doc.onlineNumber,
        originalProtocol: known.protocol,
        eventProtocol: r.protocol,
        justification: text,
      },
    );
  }
  const voided = await voidNumber(s, doc);
  return transitionNfce(
    ctx,
    doc,
    'settle-original',
    'AUTHORIZED',
    { originalOutcome: 'VOIDED', originalProtocol: voided.protocol, originalXmlGz: gz(voided.proc) },
    'nfce.original-voided',
    {
      originalKey: doc.onlineKey,
      originalNumber: doc.onlineNumber,
      voidProtocol: voided.protocol,
    },
  );
}

/** The attempt's number voided: the authority never had it, and now never will. */
async function voidNumber(s: FilialSigning, doc: NfceDocument): Promise<{ protocol: string | null; proc: string }> {
  const number = doc.onlineNumber!;
  const reply = await requestVoiding(s, {
    model: 65,
    series: doc.series,
    first: number,
    last: number,
    justification: VOID_JUSTIFICATION,
    year: doc.onlineKey!.slice(2, 4),
    fallbackUfCode: doc.accessKey.slice(0, 2),
  });
  // 241: the number is used after all → consult again on the next try.
  if (reply.outcome === 'UNAVAILABLE') throw voidingUnavailable(reply);
  if (reply.cStat === '241')
    throw new ConflictError('CONCURRENT_UPDATE', 'The online attempt reached the authority meanwhile; settle again');
  if (reply.outcome === 'REFUSED' || !reply.proc) throw voidingRefused(reply);
  return { protocol: reply.protocol, proc: reply.proc };
}

/** POST /nfce/:id/cancel-original: the same, on demand. */
export async function cancelOriginal(ctx: TenantContext, id: number, justification: string): Promise<NfceDocument> {
  const doc = await findNfce(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  return settleOriginal(ctx, doc, justification);
}

/** The queue's step: every authorized note whose online attempt is still to settle (failures wait for the next pass). */
export async function settlePendingOriginals(limit = 100): Promise<number> {
  const docs = await readerOf(NO_UNIT).find(NfceDocument, {
    where: { status: 'AUTHORIZED', originalOutcome: 'PENDING' },
    order: { id: 'ASC' },
    take: limit,
  });
  let settled = 0;
  for (const doc of docs) {
    try {
      await settleOriginal({ companyId: doc.companyId, actor: 'nfce-queue' }, doc);
      settled++;
    } catch (err) {
      logger.warn('nfce queue: online attempt not settled', { nfceId: encodeId('nfce', doc.id), err: (err as Error).message });
    }
  }
  return settled;
}
