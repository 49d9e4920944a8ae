import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { type ProtocolResult, TP_CANCELAMENTO } from '../authority';
import { ConflictError } from '../../core/errors';
import { consult, procOf, type Rejected, type Standing } from '../emission';
import { attachFiscalDocument } from '../receivables';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import { sendEvent } from './events.service';
import {
  authorizerOfDocument,
  clientOf,
  contingencyDocumentOf,
  deliveryDue,
  noteAttempt,
  filialSigning,
  findInvoice,
  gunzipText,
  gz,
  releaseLease,
  takeLease,
  transition,
} from './invoice-store';
import { assertTransition, UNSETTLED_STATUSES } from './invoices.state';
import { outcomeOf, ownerOf } from './document-sources';
import { voidRejected } from './void.service';

/*
 * A number whose attempt may have reached the authority is never sent under another key until that
 * attempt's fate is known (SPEC §12.2, issue 43). When the answer to an authorization is lost and the
 * authority is then down, the first attempt keeps its number and key (SENT, consulted by the recovery
 * pass) and the sale's document becomes a contingency document with a NEW number (contingency_of →
 * the first attempt; the sale's claim moves to it). When the authority answers for the first key:
 *  - authorized: the first attempt is the sale's document (claim, receivables and source hooks move
 *    back to it) and the contingency document is cancelled (110111) or, never authorized, its number voided;
 *  - not at the authority (217): the first attempt's number is voided and the contingency document stands;
 *  - denied: its number is used by the denial, the contingency document stands.
 * Every exchange that ends without a verdict is on the document (last attempt: when, what failed), in a
 * warn log line and in a counter, so a document never waits in silence.
 */

/** The NF-e's verdict: the authority's record of the key (Standing), a rejection, or the authority down. */
export type Answer =
  | Exclude<Standing, { kind: 'DOWN' }>
  | Rejected
  /** 108/109; `reached`: an earlier attempt of this key may have reached the authority (its answer was lost). */
  | { kind: 'DOWN'; cStat: string; xMotivo: string; reached?: boolean };

/** What an answer without a verdict says, for the document and the log. */
export const failureOf = (a: Answer): string =>
  a.kind === 'DOWN'
    ? `SEFAZ indisponivel: ${a.cStat} ${a.xMotivo}`
    : a.kind === 'UNKNOWN'
      ? a.reason
      : a.kind === 'REJECTED'
        ? `${a.cStat} ${a.xMotivo}`
        : a.prot.cStat;

/**
 * The key a 539 names ("[chNFe: …]") when it is ours: the same issuer, model, série and number as the
 * document (the number is ours, so only we signed it), under another key.
 */
export function namedKeyOfOurs(xMotivo: string, doc: Pick<OutboundNfe, 'accessKey'>): string | null {
  const key = /chNFe:?\s*(\d{44})/.exec(xMotivo)?.[1] ?? null;
  if (!key || key === doc.accessKey) return null;
  return key.slice(6, 34) === doc.accessKey.slice(6, 34) ? key : null;
}

/**
 * The recovery pass's settlement of a first attempt a contingency document replaced (the issue request
 * never holds one: the sale's claim is on the contingency document). Under the first attempt's lease:
 * its key consulted, then decided by settleFirstAttempt. Answers the first attempt as it then is.
 */
export async function settleReplacedAttempt(ctx: ActorContext, id: number): Promise<OutboundNfe> {
  const owner = `first-attempt:${crypto.randomBytes(4).toString('hex')}`;
  if (!(await takeLease(ctx.companyId, id, owner))) return findInvoice(ctx.companyId, id, readerOf(ctx));
  try {
    const first = await findInvoice(ctx.companyId, id, readerOf(ctx));
    const second = first.status === 'SENT' ? await contingencyDocumentOf(first) : null;
    if (!second) return first;
    const client = await clientOf(await filialSigning(ctx.companyId, first.filialId), authorizerOfDocument(first));
    return await settleFirstAttempt(ctx, first, second, await consult(client, first.accessKey));
  } catch (err) {
    // Another holder moved it first: its state stands.
    if (err instanceof ConflictError && err.code === 'CONCURRENT_UPDATE') return findInvoice(ctx.companyId, id, readerOf(ctx));
    throw err;
  } finally {
    await releaseLease(ctx.companyId, id, owner).catch(() => undefined);
  }
}

/**
 * Decides a first attempt that a contingency document replaced, from what its own authority said of
 * its key (`known`). Never sends it again. Answers the first attempt as it then is.
 */
export async function settleFirstAttempt(ctx: ActorContext, first: OutboundNfe, second: OutboundNfe, known: Answer): Promise<OutboundNfe> {
  if (known.kind === 'AUTHORIZED') return firstAuthorized(ctx, first, second, known.prot);
  if (known.kind === 'DENIED') {
    // The denial uses the number; the contingency document stays the sale's.
    const prot = known.prot;
    return transition(ctx, first, 'DENIED', verdictFields(first, prot), 'nfe.outbound.denied');
  }
  if (known.kind === 'UNKNOWN' && known.absent) {
    // Not at the authority: the number was never used; it is voided and the contingency document stands.
    const after = await transition(
      ctx,
      first,
      'REJECTED',
      {
        cStat: '217',
        xMotivo:
          `Tentativa sem resposta, nao consta na SEFAZ; substituida pela NF-e ${second.series}/${second.number} em contingencia`.slice(
            0,
            255,
          ),
        lastAttemptAt: new Date(),
        lastAttemptError: null,
      },
      null,
    );
    try {
      return await voidRejected(
        ctx,
        after.id,
        'Numero nao utilizado: tentativa sem resposta substituida por NF-e emitida em contingencia',
        false,
      );
    } catch (err) {
      // Recorded PENDING (or refused): the recovery pass asks again; the report shows the number meanwhile.
      logger.warn('the number of an NF-e first attempt could not be voided yet', {
        invoiceId: encodeId('invoice', after.id),
        err: (err as Error).message,
      });
      return findInvoice(ctx.companyId, after.id, readerOf(ctx));
    }
  }
  return noteAttempt(
    ctx,
    first,
    known.kind === 'DOWN' ? 'down' : 'first-attempt-pending',
    `Primeira tentativa aguardando consulta (${failureOf(known)}); NF-e da venda: ${second.series}/${second.number}`,
  );
}

/** What the first attempt's protocol writes on it (authorized or denied): its nfeProc and the attempt closed. */
function verdictFields(first: OutboundNfe, prot: ProtocolResult) {
  return {
    cStat: prot.cStat,
    xMotivo: prot.xMotivo.slice(0, 255),
    protocol: prot.protocol,
    authorizedAt: prot.receivedAt ? new Date(prot.receivedAt) : new Date(),
    procXmlGz: gz(procOf(gunzipText(first.signedXmlGz), prot.xml)),
    lastAttemptAt: new Date(),
    lastAttemptError: null,
  };
}

type Cancellation = { protocol: string | null; cStat: string; xMotivo: string; registeredAt: Date; proc: string; text: string };

/** The first attempt was authorized: it is the sale's document; the contingency one is cancelled, or its number voided. */
async function firstAuthorized(ctx: ActorContext, first: OutboundNfe, secondSeen: OutboundNfe, prot: ProtocolResult): Promise<OutboundNfe> {
  const second = await findInvoice(ctx.companyId, secondSeen.id, readerOf(ctx));
  // The contingency document's own verdict first (the recovery pass settles it): never two documents in flight for one sale.
  if (UNSETTLED_STATUSES.includes(second.status))
    return noteAttempt(
      ctx,
      first,
      'first-attempt-pending',
      `Primeira tentativa autorizada (${prot.protocol}); aguardando o resultado da NF-e de contingencia ${second.series}/${second.number}`,
    );
  let cancellation: Cancellation | null = null;
  if (second.status === 'AUTHORIZED') {
    const cancelled = await cancelDuplicate(ctx, first, second);
    if ('noted' in cancelled) return cancelled.noted;
    cancellation = cancelled.cancellation;
  }
  const after = await inTransaction(ctx, (em) => handOverToFirst(ctx, em, first, second, prot, cancellation));
  if (second.status === 'REJECTED') {
    await voidRejected(
      ctx,
      second.id,
      'Numero nao utilizado: NF-e de contingencia substituida pela primeira tentativa autorizada',
      false,
    ).catch((err) =>
      logger.warn('the number of a withdrawn contingency NF-e could not be voided yet', {
        invoiceId: encodeId('invoice', second.id),
        err: (err as Error).message,
      }),
    );
  }
  return after;
}

/** Both were authorized: the contingency document is cancelled at the authority (no transaction open); any other outcome is noted on the first. */
async function cancelDuplicate(
  ctx: ActorContext,
  first: OutboundNfe,
  second: OutboundNfe,
): Promise<{ cancellation: Cancellation } | { noted: OutboundNfe }> {
  const text = `NF-e emitida em contingencia em duplicidade: a NF-e ${first.series}/${first.number} da mesma venda foi autorizada`;
  let sent;
  try {
    sent = await sendEvent(second, TP_CANCELAMENTO, 1, text);
  } catch (err) {
    return {
      noted: await noteAttempt(
        ctx,
        first,
        'no-answer',
        `Primeira tentativa autorizada; cancelamento da NF-e de contingencia ${second.series}/${second.number} sem resposta: ${(err as Error).message}`,
      ),
    };
  }
  const r = sent.result;
  if (!r || !['135', '155', '573'].includes(r.cStat)) {
    // Refused (past the deadline…): both stand at the authority; an operator decides. Loud, and asked again each pass.
    logger.error('the contingency NF-e of a sale whose first attempt was authorized could not be cancelled', {
      invoiceId: encodeId('invoice', second.id),
      firstInvoiceId: encodeId('invoice', first.id),
      cStat: r?.cStat ?? sent.lot.cStat,
      xMotivo: r?.xMotivo ?? sent.lot.xMotivo,
    });
    return {
      noted: await noteAttempt(
        ctx,
        first,
        'first-attempt-pending',
        `Primeira tentativa autorizada; cancelamento da NF-e de contingencia recusado: ${r?.cStat ?? sent.lot.cStat} ${r?.xMotivo ?? sent.lot.xMotivo}`,
      ),
    };
  }
  const registeredAt = r.registeredAt ? new Date(r.registeredAt) : new Date();
  return { cancellation: { protocol: r.protocol, cStat: r.cStat, xMotivo: r.xMotivo, registeredAt, proc: sent.proc, text } };
}

/** One transaction: the claim leaves the contingency document (cancelled or withdrawn) and comes back to the authorized first attempt. */
async function handOverToFirst(
  ctx: ActorContext,
  em: EntityManager,
  first: OutboundNfe,
  second: OutboundNfe,
  prot: ProtocolResult,
  cancellation: Cancellation | null,
): Promise<OutboundNfe> {
  const claim = second.claim;
  // The claim leaves the contingency document first (it is unique), then comes back to the first attempt.
  if (cancellation) {
    await em.insert(OutboundNfeEvent, {
      companyId: second.companyId,
      filialId: second.filialId,
      outboundNfeId: second.id,
      type: TP_CANCELAMENTO,
      sequence: 1,
      text: cancellation.text.slice(0, 255),
      cStat: cancellation.cStat,
      xMotivo: cancellation.xMotivo.slice(0, 255),
      protocol: cancellation.protocol ?? '',
      registeredAt: cancellation.registeredAt,
      xmlGz: gz(cancellation.proc),
      actor: ctx.actor.slice(0, 100),
    });
    assertTransition(second, 'cancel', 'CANCELLED');
    await transition(
      ctx,
      second,
      'CANCELLED',
      { cancelledAt: new Date(), cancelProtocol: cancellation.protocol, claim: null },
      'nfe.outbound.cancelled',
      em,
      {
        justification: cancellation.text,
        replacedBy: encodeId('invoice', first.id),
      },
    );
  } else {
    assertTransition(second, 'withdraw', second.status);
    await transition(ctx, second, second.status, { claim: null }, null, em);
  }
  assertTransition(first, 'record', 'AUTHORIZED');
  const authorized = await transition(
    ctx,
    first,
    'AUTHORIZED',
    { ...verdictFields(first, prot), ...deliveryDue(first), claim },
    'nfe.outbound.authorized',
    em,
  );
  if (first.fulfillmentId !== null)
    await attachFiscalDocument(em, ctx, { fulfillmentId: first.fulfillmentId, fiscalDocumentId: first.id, accessKey: first.accessKey });
  // The source's owner reacted once for this sale already when the contingency document was authorized.
  if (!cancellation) await ownerOf(authorized)?.provider.onAuthorized?.(em, ctx, outcomeOf(authorized));
  return authorized;
}
