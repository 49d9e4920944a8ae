import type { EntityManager } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError } from '../../core/errors';
import { asciiText, brasiliaDateTime, Contingency, IssuerEvent, TP_CANCELAMENTO, TP_CCE, UFS } from '../authority';
import { assertPeriodOpen } from '../fiscal-periods';
import { cancelForFiscalDocument } from '../receivables';
import { billedFulfillments } from './billing-source';
import { billingSnapshot, realignBoletosOfBilling } from '../collection';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import { filialSigning, findInvoice, gz, transition } from './invoice-store';
import { CANCELLATION_REGISTERED, registeredEvent, sendIssuerEvent, SentEvent } from './issuer-event';
import { outcomeOf, ownerOf } from './document-sources';
import { assertAllowed, assertTransition } from './invoices.state';

/*
 * The issuer's events on an authorized NF-e (NFeRecepcaoEvento4 of its authority):
 *  - cancellation 110111 within the UF's deadline (data below; past it 422 before anything is sent,
 *    and the authority's own 501 maps to the same answer). It does not move stock: goods that come
 *    back return through /returns (docs/decisions.md).
 *  - carta de correção 110110, nSeqEvento 1..20, the latest one replacing the previous; its text may
 *    not touch what the law keeps out of a CC-e (values, taxes, parties, dates), refused with 422.
 */

/** Hours after authorization an NF-e may be cancelled, per UF (Ajuste SINIEF 07/05 cl. 12ª; every UF applies 24 h today). */
export const CANCEL_DEADLINE_HOURS: Readonly<Record<string, number>> = Object.freeze(Object.fromEntries(UFS.map((uf) => [uf, 24])));

/** What a CC-e may not change (Convênio S/N de 1970, art. 7º §1º-A), recognised in its text. */
const FORBIDDEN_CORRECTIONS: { rule: string; pattern: RegExp }[] = [
  {
    rule: 'values (price, quantity, amounts, discounts)',
    pattern: /\b(valor|valores|preco|pre[çc]o|quantidade|qtde|desconto|frete|total)\b|r\$\s*\d|\d+[.,]\d{2}\b/i,
  },
  {
    rule: 'taxes (bases, rates, CST/CSOSN, CFOP amounts)',
    pattern: /\b(icms|ipi|pis|cofins|aliquota|al[íi]quota|base de c[aá]lculo|imposto|tributo|cst|csosn|st)\b|\d+([.,]\d+)?\s*%/i,
  },
  {
    rule: 'the parties (issuer or recipient, their documents)',
    pattern:
      /\b(destinat[aá]rio|remetente|emitente|cnpj|cpf|raz[aã]o social)\b|\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}/i,
  },
  {
    rule: 'dates (issue or departure)',
    pattern: /\b(data de emiss[aã]o|data de sa[ií]da|emiss[aã]o|dhemi)\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/i,
  },
];

export function correctionProblem(text: string): string | null {
  const hit = FORBIDDEN_CORRECTIONS.find((r) => r.pattern.test(text));
  return hit ? hit.rule : null;
}

const contingencyOfDoc = (doc: OutboundNfe): Contingency | null =>
  doc.emissionType === 6 ? 'SVC-AN' : doc.emissionType === 7 ? 'SVC-RS' : null;

/** The NF-e's issuer event, sent to the authority that authorized it (SVC when it was issued in contingency). */
export async function sendEvent(
  doc: OutboundNfe,
  tpEvento: IssuerEvent['tpEvento'],
  sequence: number,
  text: string,
  what = 'event',
): Promise<SentEvent> {
  const s = await filialSigning(doc.companyId, doc.filialId);
  const e: IssuerEvent = {
    tpEvento,
    cOrgao: doc.accessKey.slice(0, 2),
    tpAmb: s.tpAmb,
    cnpj: s.filial.cnpj,
    accessKey: doc.accessKey,
    at: brasiliaDateTime(new Date()),
    sequence,
    protocol: doc.protocol ?? undefined,
    text,
  };
  return sendIssuerEvent(s, e, contingencyOfDoc(doc), what);
}

class DryRun extends Error {}

/** Runs `work` in a transaction that is always rolled back: its refusal (422) comes before anything is sent. */
async function dryRun(work: (em: EntityManager) => Promise<unknown>): Promise<void> {
  try {
    await inTransaction(NO_UNIT, async (em) => {
      await work(em);
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
}

/** 422 RECEIVABLE_HAS_RECEIPTS before anything is sent: the cancellation of the receivables is tried and rolled back. */
const assertReceivablesCancellable = (ctx: TenantContext, fulfillmentId: number, reason: string) =>
  dryRun((em) => cancelForFiscalDocument(em, ctx, { fulfillmentId, reason }));

export async function cancelInvoice(ctx: TenantContext, id: number, justification: string): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  assertAllowed(doc, 'cancel');
  const s = await filialSigning(ctx.companyId, doc.filialId);
  const hours = CANCEL_DEADLINE_HOURS[s.filial.uf] ?? 24;
  const deadline = (doc.authorizedAt ?? doc.issuedAt).getTime() + hours * 3600_000;
  if (Date.now() > deadline) {
    throw new BusinessRuleError(
      'CANCELLATION_DEADLINE_PASSED',
      `An NF-e of ${s.filial.uf} may be cancelled within ${hours} hours of its authorization (until ${new Date(deadline).toISOString()})`,
      {
        deadline: new Date(deadline).toISOString(),
        hours,
      },
    );
  }
  const text = asciiText(justification).slice(0, 255);
  for (const fulfillmentId of await billedFulfillments(readerOf(ctx), ctx.companyId, doc))
    await assertReceivablesCancellable(ctx, fulfillmentId, text);
  // The NF-e's month and today's: checked before anything is sent (the authority's record, once made, is always kept).
  await assertPeriodOpen(readerOf(ctx), ctx.companyId, doc.filialId, [doc.issuedAt, new Date()]);
  const owner = ownerOf(doc);
  if (owner?.provider.onCancelled)
    await dryRun((em) => owner.provider.onCancelled!(em, ctx, { ...outcomeOf(doc), cancelProtocol: null, justification: text }));
  const result = registeredEvent(await sendEvent(doc, TP_CANCELAMENTO, 1, text, 'cancellation'), CANCELLATION_REGISTERED, 'cancellation');
  return inTransaction(ctx, async (em) => {
    await em.insert(OutboundNfeEvent, {
      companyId: doc.companyId,
      filialId: doc.filialId,
      outboundNfeId: doc.id,
      type: TP_CANCELAMENTO,
      sequence: 1,
      text,
      cStat: result.cStat,
      xMotivo: result.xMotivo.slice(0, 255),
      protocol: result.protocol ?? '',
      registeredAt: result.registeredAt ? new Date(result.registeredAt) : new Date(),
      xmlGz: gz(result.proc),
      actor: ctx.actor.slice(0, 100),
    });
    assertTransition(doc, 'cancel', 'CANCELLED');
    // The fulfilment's open receivables are cancelled with the document.
    const fulfillmentIds = await billedFulfillments(em, ctx.companyId, doc);
    const before = await billingSnapshot(em, ctx.companyId, fulfillmentIds);
    for (const fulfillmentId of fulfillmentIds)
      await cancelForFiscalDocument(em, ctx, {
        fulfillmentId,
        reason: `NF-e ${doc.series}/${doc.number} cancelada: ${text}`.slice(0, 255),
      });
    // Their boletos go with them: withdrawn if no remessa carried them, else a write-off asked of the bank.
    await realignBoletosOfBilling(em, ctx, { fulfillmentIds, bankAccountId: null, before });
    // The source's owner reverses its effects in this transaction.
    await owner?.provider.onCancelled?.(em, ctx, { ...outcomeOf(doc), cancelProtocol: result.protocol ?? null, justification: text });
    // Cancelled, the document no longer bills its fulfilment: it may be billed again by a new NF-e.
    return transition(
      ctx,
      doc,
      'CANCELLED',
      { cancelledAt: new Date(), cancelProtocol: result.protocol, claim: null },
      'nfe.outbound.cancelled',
      em,
      { justification: text },
    );
  });
}

export async function correctInvoice(
  ctx: TenantContext,
  id: number,
  correction: string,
): Promise<{ doc: OutboundNfe; event: OutboundNfeEvent }> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  assertAllowed(doc, 'correct');
  const text = asciiText(correction).slice(0, 1000);
  const problem = correctionProblem(text);
  if (problem) throw new BusinessRuleError('CORRECTION_NOT_ALLOWED', `A carta de correção may not change ${problem}`, { rule: problem });
  const sequence = doc.correctionSequence + 1;
  if (sequence > 20) throw new BusinessRuleError('CORRECTION_LIMIT', 'An NF-e takes at most 20 cartas de correção');
  // The sequence is reserved first (conditional on the one read), so two corrections never share a number.
  // Reserved under the period check (the NF-e's month and today's): a close waits for it and then sees the CC-e in flight.
  const reserved = await inTransaction(ctx, async (em) => {
    await assertPeriodOpen(em, ctx.companyId, doc.filialId, [doc.issuedAt, new Date()]);
    return em
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ correctionSequence: sequence })
      .where('id = :id AND company_id = :c AND correction_sequence = :prev AND status = :s', {
        id,
        c: ctx.companyId,
        prev: doc.correctionSequence,
        s: 'AUTHORIZED',
      })
      .execute();
  });
  if (!reserved.affected) throw new ConflictError('CONCURRENT_UPDATE', 'Another correction of this NF-e is in progress; retry');
  const result = registeredEvent(await sendEvent(doc, TP_CCE, sequence, text), ['135', '136'], 'event');
  return inTransaction(ctx, async (em) => {
    const event = await em.save(
      em.create(OutboundNfeEvent, {
        companyId: doc.companyId,
        filialId: doc.filialId,
        outboundNfeId: doc.id,
        type: TP_CCE,
        sequence,
        text,
        cStat: result.cStat,
        xMotivo: result.xMotivo.slice(0, 255),
        protocol: result.protocol ?? '',
        registeredAt: result.registeredAt ? new Date(result.registeredAt) : new Date(),
        xmlGz: gz(result.proc),
        actor: ctx.actor.slice(0, 100),
      }),
    );
    const current = await findInvoice(ctx.companyId, id, em);
    const after = await transition(ctx, current, 'AUTHORIZED', {}, 'nfe.outbound.corrected', em, { sequence, correction: text });
    return { doc: after, event };
  });
}
