import crypto from 'node:crypto';
import os from 'node:os';
import { EntityManager, In } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import { businessToday } from '../../core/business-date';
import { invoicesConfig } from '../../core/config/invoices';
import type { ActorContext, TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { assertPeriodOpen } from '../fiscal-periods';
import type { ComputedFiscalDocument } from '../fiscal';
import { amountDueOf, legalStatements } from '../fiscal';
import { contingencyOf, emissionTypeOf, signNfe } from '../authority';
import { type AuthorizationRules, consult, DENIED, procOf, RESEND, transmit } from '../emission';
import { filialAuthoritySettings } from '../sefaz';
import { accessKeyRandomCode as randomCode } from '../fiscal-xml';
import { Answer, failureOf, namedKeyOfOurs } from './first-attempt';
import { attachFiscalDocument } from '../receivables';
import { billedFulfillments, billingInstallments, givenInstallments } from './billing-source';
import {
  alreadyInvoiced,
  claimsUnderLock,
  liveHolder,
  lockClaimScope,
  probeSource,
  resolveSource,
  SourceTarget,
  targetOf,
} from './issue-source';
import { outcomeOf, ownerOf } from './document-sources';
import { ContingencyState, currentContingency, enterContingency } from './contingency.service';
import { OutboundNfe, OutboundNfeSummary, StoredIssueInput } from './entities/outbound-nfe.entity';
import { InvoiceSeries } from './entities/invoice-series.entity';
import {
  authorizerOfDocument,
  clientOf,
  contingencyDocumentOf,
  deliveryDue,
  filialSigning,
  FilialSigning,
  findInvoice,
  gunzipText,
  gz,
  insertErrorOf,
  insertIssued,
  noteAttempt,
  releaseLease,
  takeLease,
  transition,
} from './invoice-store';
import { assertAllowed, assertTransition, UNSETTLED_STATUSES } from './invoices.state';
import { buildNfeXml, Installment, layoutText, NfeTransport } from './xml/nfe-xml';
import { takeNextNumber } from './series.service';

/*
 * Issuing an NF-e exactly once (SPEC §12.2):
 *  1. one transaction takes the série's next number (conditional UPDATE), computes the document with
 *     the tax engine, builds and signs the XML and STORES it (SIGNED) with the claim on what it bills;
 *  2. SIGNED → SENT is committed before the XML goes out;
 *  3. the authority's answer is recorded (AUTHORIZED | REJECTED | DENIED). No answer (timeout, lost
 *     connection) and 204/539 duplicity are settled by consulting the key, never by a new number; a
 *     number whose attempt may have reached the authority is never sent under another key: when the
 *     authority is then down, the sale's contingency document takes a new number (first-attempt.ts).
 * A document left SIGNED/SENT by a crash is settled by whoever holds its lease next: the retry of the
 * same request (same Idempotency-Key) or the recovery pass.
 */

export interface IssueInput extends SourceTarget {
  installments?: { dueDate: string; amount: Dec }[];
  paymentType?: string;
  transport?: {
    mode: NfeTransport['mode'];
    volumes?: { quantity: number; kind?: string | null; grossWeight?: Dec | null; netWeight?: Dec | null } | null;
  };
  notes?: string | null;
}

export interface InvoicePreview {
  document: ComputedFiscalDocument;
  installments: Installment[];
  paymentType: string;
  transport: NfeTransport;
  additionalInfo: string;
  series: number;
  emissionType: number;
}

const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
const newOwner = (what: string) => `${what}:${PROCESS_OWNER}:${crypto.randomBytes(4).toString('hex')}`.slice(0, 80);

/** Tests only: the process dies at this step (INVOICE_CRASH_POINT), as a power cut would. */
function crashPoint(name: string): void {
  if (invoicesConfig.crashPoint === name) process.kill(process.pid, 'SIGKILL');
}

const money = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);
const brl = (d: Dec) => money(d).toFixed(2).replace('.', ',');

/**
 * infCpl: the order's notes, the statements the law asks (Simples Nacional), then the Lei 12.741 text:
 * "Trib aprox R$ x Federal, R$ y Estadual [e R$ z Municipal] Fonte: IBPT <chave> <versão>" (Decreto
 * 8.264/2014 art. 2; the IBPT's own wording). Without a table in force no figure is declared: the
 * document says so and the answer carries the warning (docs/decisions/tax-law-rows.md, row 7).
 */
export function additionalInfoOf(doc: ComputedFiscalDocument, notes: string | null | undefined): string {
  const a = doc.approximateTaxSource;
  const lei = a
    ? `Trib aprox R$ ${brl(a.federal)} Federal, R$ ${brl(a.state)} Estadual${a.municipal.gt(0) ? ` e R$ ${brl(a.municipal)} Municipal` : ''} Fonte: ${[a.source, a.tableKey, a.tableVersion].filter(Boolean).join(' ')} (Lei 12.741/2012)`
    : 'Valor aproximado dos tributos não informado: sem tabela IBPT vigente (Lei 12.741/2012)';
  return [layoutText(notes, 2000), ...legalStatements(doc), lei].filter(Boolean).join(' | ');
}

function transportOf(input: IssueInput, doc: ComputedFiscalDocument): NfeTransport {
  const t = input.transport;
  const volumes = t?.volumes
    ? {
        quantity: t.volumes.quantity,
        kind: t.volumes.kind ?? null,
        grossWeight: t.volumes.grossWeight ?? null,
        netWeight: t.volumes.netWeight ?? null,
      }
    : null;
  return { mode: t?.mode ?? (doc.totals.vFrete.gt(0) ? 0 : 9), volumes };
}

/**
 * The document and what goes with it. In the issuing transaction (not `preview`) a billing document's
 * receivables are made equal to it (billing-source.ts): its cobr/dup are them, to the cent.
 */
async function computeFor(ctx: TenantContext, input: IssueInput, em: EntityManager, preview = false) {
  const today = businessToday();
  const source = await resolveSource(ctx, input, em, today);
  await assertFilialAccess(ctx, source.filialId, em);
  const document = source.document;
  const billing =
    source.source === 'FULFILLMENT' || source.source === 'ORDER'
      ? await billingInstallments(ctx, source, input.installments, amountDueOf(document), today, em, !preview)
      : {
          installments: (givenInstallments(input.installments, amountDueOf(document)) ?? []).map((d, i) => ({
            number: String(i + 1).padStart(3, '0'),
            ...d,
          })),
          paymentType: null,
        };
  const installments = billing.installments.length ? billing.installments : (source.installments ?? []);
  // Devoluções, adjustments and transfers pay nothing: tPag 90.
  const unpaid = document.purpose === 3 || document.purpose === 4 || document.operation === 'TRANSFER';
  return {
    source,
    document,
    installments,
    paymentType: input.paymentType ?? source.paymentType ?? (unpaid ? '90' : (billing.paymentType ?? (installments.length ? '15' : '01'))),
    transport: transportOf(input, document),
    additionalInfo: additionalInfoOf(document, input.notes ?? source.notes),
  };
}

type Computed = Awaited<ReturnType<typeof computeFor>>;

/** The computed document as XML under its number and key, signed with the filial's certificate (issue, re-issue, contingency). */
function signedDocument(
  c: Computed,
  sc: FilialSigning,
  at: {
    number: number;
    series: number;
    issuedAt: Date;
    randomCode: string;
    contingency: Pick<ContingencyState, 'mode' | 'since' | 'reason'> | null;
  },
) {
  const built = buildNfeXml(c.document, {
    number: at.number,
    series: at.series,
    issuedAt: at.issuedAt,
    emissionType: emissionTypeOf(at.contingency?.mode ?? null),
    contingency: at.contingency ? { at: at.contingency.since, reason: at.contingency.reason } : null,
    randomCode: at.randomCode,
    tpAmb: sc.tpAmb,
    transport: c.transport,
    installments: c.installments,
    paymentType: c.paymentType,
    additionalInfo: c.additionalInfo,
  });
  return { built, signed: signNfe(built.xml, built.accessKey, built.canonicalInfNFe, sc.signer) };
}

/** A signed document's row, as far as its signing writes it (a first attempt and a contingency document alike). */
function signedRow(
  ctx: ActorContext,
  c: Computed,
  sc: FilialSigning,
  input: IssueInput,
  at: {
    series: Pick<InvoiceSeries, 'id' | 'series'>;
    number: number;
    issuedAt: Date;
    contingency: Pick<ContingencyState, 'mode' | 'since' | 'reason'> | null;
  },
) {
  const code = randomCode(at.number);
  const { built, signed } = signedDocument(c, sc, { ...at, series: at.series.series, randomCode: code });
  return {
    seriesId: at.series.id,
    series: at.series.series,
    number: at.number,
    accessKey: built.accessKey,
    status: 'SIGNED' as const,
    emissionType: emissionTypeOf(at.contingency?.mode ?? null),
    contingencyReason: at.contingency?.reason ?? null,
    issuedAtText: built.issuedAtText,
    issuedAt: at.issuedAt,
    randomCode: code,
    total: money(c.document.totals.vNF),
    summary: { ...summaryOf(c), input: toStored(input) },
    signedXmlGz: gz(signed.xml),
    actor: ctx.actor.slice(0, 100),
    leaseUntil: new Date(Date.now() + invoicesConfig.leaseMs),
  };
}

/** The series new NF-e of the filial take: the default one of model 55, created as série 1 from number 1 on first use. */
async function seriesFor(companyId: number, filialId: number, model: number): Promise<InvoiceSeries> {
  const find = () => readerOf(NO_UNIT).findOne(InvoiceSeries, { where: { companyId, filialId, model, isDefault: true } });
  const found = await find();
  if (found) return found;
  try {
    await inTransaction(NO_UNIT, (em) =>
      em.insert(InvoiceSeries, { companyId, filialId, model, series: 1, nextNumber: 1, isDefault: true }),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const made = await find();
  if (!made) throw new BusinessRuleError('SERIES_NOT_CONFIGURED', `The filial has no default série for model ${model}; configure one`);
  return made;
}

/** Preview: the whole document as it would be issued, without a number. */
export async function previewInvoice(ctx: TenantContext, input: IssueInput): Promise<InvoicePreview> {
  const em = readerOf(ctx);
  const c = await computeFor(ctx, input, em, true);
  const series = await em.findOne(InvoiceSeries, {
    where: { companyId: ctx.companyId, filialId: c.source.filialId, model: 55, isDefault: true },
  });
  const contingency = await currentContingency(ctx.companyId, c.source.filialId);
  return {
    document: c.document,
    installments: c.installments,
    paymentType: c.paymentType,
    transport: c.transport,
    additionalInfo: c.additionalInfo,
    series: series?.series ?? 1,
    emissionType: emissionTypeOf(contingency?.mode ?? null),
  };
}

function summaryOf(c: Computed): OutboundNfeSummary {
  const d = c.document;
  const t = d.totals;
  const totals: Record<string, string> = {};
  for (const k of [
    'vBC',
    'vICMS',
    'vBCST',
    'vST',
    'vFCP',
    'vFCPST',
    'vFCPUFDest',
    'vICMSUFDest',
    'vICMSUFRemet',
    'vProd',
    'vFrete',
    'vSeg',
    'vDesc',
    'vIPI',
    'vIPIDevol',
    'vPIS',
    'vCOFINS',
    'vOutro',
    'vNF',
    'vTotTrib',
  ] as const)
    totals[k] = money(t[k]).toFixed(2);
  return {
    recipientName: d.recipient.name,
    recipientDocument: d.recipient.document,
    recipientEmail: d.recipient.email,
    operationNature: d.operationNature,
    itemCount: d.items.length,
    direction: d.direction,
    purpose: d.purpose,
    references: d.references ?? [],
    itemSources: d.items.map((i) => i.salesOrderItemId),
    totals,
    installments: c.installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amount: i.amount.toFixed(2) })),
    additionalInfo: c.additionalInfo,
    warnings: d.warnings,
  };
}

const describe = (source: string) =>
  source === 'FULFILLMENT' ? 'This fulfilment' : source === 'ORDER' ? 'This order' : `This ${source.toLowerCase().replace('_', ' ')}`;

/**
 * Issues the NF-e of a fulfilment, an order or a registered source (document-sources.ts). A retry with
 * the issuing request's Idempotency-Key resumes (or answers) its document; another request for
 * something that already has a live document is a 409.
 */
export async function issueInvoice(
  ctx: TenantContext,
  input: IssueInput,
  requestKey: string | null,
): Promise<{ doc: OutboundNfe; created: boolean }> {
  const probe = await probeSource(ctx, input, readerOf(ctx));
  await assertFilialAccess(ctx, probe.filialId);
  // The usual answer without a lock; the transaction below checks again under it (issue-source.ts).
  const existing = await readerOf(ctx).findOne(OutboundNfe, {
    where: { companyId: ctx.companyId, claim: In([probe.claim, ...probe.conflictingClaims]) },
  });
  const resumes = (holder: Pick<OutboundNfe, 'requestKey' | 'claim'>) =>
    !!requestKey && holder.requestKey === requestKey && holder.claim === probe.claim;
  if (existing) {
    if (resumes(existing))
      return { doc: UNSETTLED_STATUSES.includes(existing.status) ? await settle(ctx, existing.id) : existing, created: false };
    throw alreadyInvoiced(probe.source, existing);
  }
  const sc = await filialSigning(ctx.companyId, probe.filialId); // certificate problems: 422 before a number is taken
  const series = await seriesFor(ctx.companyId, probe.filialId, 55);
  const contingency = await currentContingency(ctx.companyId, probe.filialId);
  const owner = newOwner('request');

  let doc: OutboundNfe;
  try {
    const made = await inTransaction(ctx, async (em): Promise<OutboundNfe | { resume: number }> => {
      // First the scope's lock row (written, so Galera certifies it), then who holds the goods now.
      await lockClaimScope(em, ctx.companyId, probe.scope);
      // Dated now (dhEmi): refused while the month is closed; a close waits for this transaction (period-guard.ts).
      const issuedAt = new Date();
      await assertPeriodOpen(em, ctx.companyId, probe.filialId, issuedAt);
      const holder = await liveHolder(em, ctx.companyId, await claimsUnderLock(ctx, input, probe, em));
      if (holder) {
        if (resumes(holder)) return { resume: holder.id };
        throw alreadyInvoiced(probe.source, holder);
      }
      const c = await computeFor(ctx, input, em);
      // The number, in this transaction: a rollback gives it back, a commit stores the document that uses it.
      const number = await takeNextNumber(em, ctx.companyId, series);
      crashPoint('after-numbering');
      const saved = await insertIssued(em, ctx, {
        companyId: ctx.companyId,
        filialId: c.source.filialId,
        model: 55,
        source: c.source.source,
        sourceId: c.source.sourceId,
        fulfillmentId: c.source.fulfillmentId,
        salesOrderId: c.source.salesOrderId,
        customerId: c.source.customerId,
        claim: c.source.claim,
        ...signedRow(ctx, c, sc, input, { series, number, issuedAt, contingency }),
        requestKey: requestKey?.slice(0, 255) ?? null,
        leaseOwner: owner,
      });
      return saved;
    });
    // This request's own document, committed by an earlier attempt with the same key (a race of retries).
    if ('resume' in made) return { doc: await settle(ctx, made.resume), created: false };
    doc = made;
  } catch (err) {
    if (isUniqueViolation(insertErrorOf(err))) {
      const holder = await liveHolder(readerOf(ctx), ctx.companyId, [probe.claim, ...probe.conflictingClaims]);
      throw holder
        ? alreadyInvoiced(probe.source, holder)
        : new ConflictError('ALREADY_INVOICED', `${describe(probe.source)} got its NF-e concurrently`);
    }
    throw err;
  }
  crashPoint('after-signing');
  return { doc: await settle(ctx, doc.id, owner), created: true };
}

/**
 * The NF-e's rules in the emission kernel's exchange (emission/exchange.ts): a lost answer (a kept-alive
 * connection the authority closed, a timeout) is always consulted at once and, when the authority does
 * not hold the key, the same document (same key) goes once more on a new connection. The consultation
 * unanswered or refused (108), its fate is unknown. Denials use the number; a 539 naming a key of ours
 * and a duplicity (204/539) are settled by the key's record.
 */
const nfeAuthorization: AuthorizationRules<OutboundNfe, Answer> = {
  consultsLostAnswer: () => true,
  lostAnswer(err, known, fresh) {
    if (known?.kind === 'UNKNOWN' && known.absent && !fresh) return RESEND;
    const lost = `Sem resposta da SEFAZ${err.reusedSocket ? ' (conexao reaproveitada fechada)' : ''}: ${err.message}`;
    if (!known || known.kind === 'UNKNOWN') return { kind: 'UNKNOWN', reason: known ? `${lost}; ${known.reason}` : lost };
    if (known.kind === 'DOWN') return { ...known, xMotivo: `${known.xMotivo} (${lost})`, reached: true };
    return known;
  },
  replied: () => crashPoint('after-authorized'),
  async refused(prot, doc, ask) {
    if (DENIED.has(prot.cStat)) return { kind: 'DENIED', prot };
    // 539 naming a key of ours: this number is at the authority under that key — its record decides, never a rejection.
    const named = prot.cStat === '539' ? namedKeyOfOurs(prot.xMotivo, doc) : null;
    if (named) {
      const c = await ask(named);
      if ((c.kind === 'AUTHORIZED' || c.kind === 'DENIED') && named === doc.priorAccessKey) return c;
      return {
        kind: 'UNKNOWN',
        reason: `539: o numero consta na SEFAZ sob a chave ${named} (${c.kind === 'AUTHORIZED' || c.kind === 'DENIED' ? c.prot.cStat : failureOf(c)})`,
      };
    }
    // Duplicity: this key (204) or this number under another key (539) is at the authority — its record decides.
    if (prot.cStat === '204' || prot.cStat === '539') {
      const c = await ask(doc.accessKey);
      return c.kind === 'UNKNOWN' ? { kind: 'REJECTED', cStat: prot.cStat, xMotivo: prot.xMotivo } : c;
    }
    return { kind: 'REJECTED', cStat: prot.cStat, xMotivo: prot.xMotivo };
  },
  down: (reply) => ({ kind: 'DOWN', cStat: reply.cStat, xMotivo: reply.xMotivo }),
};

type Verdict = { to: 'AUTHORIZED' | 'DENIED' | 'REJECTED'; fields: Partial<OutboundNfe>; event: string };

/** What a verdict writes on the document. `signedXml`: its XML when the caller has it unzipped already (the one it sent). */
function verdictOf(doc: OutboundNfe, answer: Extract<Answer, { kind: Verdict['to'] }>, signedXml?: string): Verdict {
  if (answer.kind === 'REJECTED')
    return {
      to: 'REJECTED',
      fields: { cStat: answer.cStat, xMotivo: answer.xMotivo.slice(0, 255), lastAttemptAt: new Date(), lastAttemptError: null },
      event: 'nfe.outbound.rejected',
    };
  const prot = answer.prot;
  // Authorized under the key this number had before its contingency rebuild (a 539 named it): that key and XML are the document's.
  const prior =
    doc.priorAccessKey !== null && prot.accessKey === doc.priorAccessKey && doc.priorXmlGz
      ? { key: doc.priorAccessKey, xml: gunzipText(doc.priorXmlGz) }
      : null;
  const swap: Partial<OutboundNfe> = prior
    ? {
        accessKey: prior.key,
        signedXmlGz: doc.priorXmlGz!,
        priorAccessKey: doc.accessKey,
        priorXmlGz: doc.signedXmlGz,
        emissionType: Number(prior.key[34]),
        contingencyReason: null,
      }
    : {};
  const authorized = answer.kind === 'AUTHORIZED';
  return {
    to: answer.kind,
    fields: {
      cStat: prot.cStat,
      xMotivo: prot.xMotivo.slice(0, 255),
      protocol: prot.protocol,
      authorizedAt: prot.receivedAt ? new Date(prot.receivedAt) : new Date(),
      procXmlGz: gz(procOf(prior?.xml ?? signedXml ?? gunzipText(doc.signedXmlGz), prot.xml)),
      lastAttemptAt: new Date(),
      lastAttemptError: null,
      ...swap,
      // The recipient's email goes after the commit (delivery.service.ts), never inside this request.
      ...(authorized ? deliveryDue(doc) : {}),
    },
    event: authorized ? 'nfe.outbound.authorized' : 'nfe.outbound.denied',
  };
}

/** The authority's verdict in one transaction with what follows from it; no verdict (DOWN, UNKNOWN): the document as it is. */
async function record(ctx: ActorContext, doc: OutboundNfe, answer: Answer, signedXml?: string): Promise<OutboundNfe> {
  if (answer.kind === 'DOWN' || answer.kind === 'UNKNOWN') return doc;
  const verdict = verdictOf(doc, answer, signedXml);
  assertTransition(doc, 'record', verdict.to);
  return inTransaction(ctx, async (em) => {
    const after = await transition(ctx, doc, verdict.to, verdict.fields, verdict.event, em);
    // The fulfilment's receivables now originate in this fiscal document (same transaction).
    if (verdict.to === 'AUTHORIZED')
      for (const fulfillmentId of await billedFulfillments(em, ctx.companyId, doc))
        await attachFiscalDocument(em, ctx, { fulfillmentId, fiscalDocumentId: doc.id, accessKey: after.accessKey });
    // The source's owner reacts in this transaction (stock, payables, credits): all or nothing with the protocol.
    const owner = ownerOf(after);
    if (owner) {
      if (verdict.to === 'AUTHORIZED') await owner.provider.onAuthorized?.(em, ctx, outcomeOf(after));
      else await owner.provider.onReleased?.(em, ctx, { ...outcomeOf(after), status: verdict.to });
    }
    return after;
  });
}

/**
 * Brings a SIGNED/SENT document to the authority's verdict under its lease. Answers the document as it
 * then is (still SENT when the authority could not be reached: the recovery pass goes on later).
 */
export async function settle(ctx: ActorContext, id: number, heldBy?: string): Promise<OutboundNfe> {
  const owner = heldBy ?? newOwner('settle');
  let doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  if (!UNSETTLED_STATUSES.includes(doc.status)) return doc;
  if (!(await takeLease(ctx.companyId, id, owner))) return doc;
  try {
    doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
    if (!UNSETTLED_STATUSES.includes(doc.status)) return doc;
    // A first attempt a contingency document replaced is never sent again: the recovery pass decides it (first-attempt.ts).
    if (doc.status === 'SENT' && (await contingencyDocumentOf(doc))) return doc;
    const sc = await filialSigning(ctx.companyId, doc.filialId);
    const contingency = authorizerOfDocument(doc);
    const client = await clientOf(sc, contingency);
    // Sent before (a crash or a lost answer): the authority's record comes first, and decides.
    let reached = false;
    if (doc.status === 'SENT') {
      const known = await consult(client, doc.accessKey);
      if (known.kind === 'AUTHORIZED' || known.kind === 'DENIED') return await record(ctx, doc, known);
      // Unless the authority said it does not hold the key, the earlier attempt may have reached it.
      reached = !(known.kind === 'UNKNOWN' && known.absent);
    }
    assertAllowed(doc, 'send');
    doc = await transition(ctx, doc, 'SENT', { sendAttempts: doc.sendAttempts + 1, lastSentAt: new Date() }, null);
    crashPoint('after-sending');
    let signedXml = gunzipText(doc.signedXmlGz);
    let answer = await transmit(client, doc, signedXml, nfeAuthorization);
    // The authority stopped: enter contingency for the filial, unless its policy leaves that to an operator
    // (MANUAL: the document waits SENT, the recovery pass sends it again).
    if (
      answer.kind === 'DOWN' &&
      !contingency &&
      (await filialAuthoritySettings(sc.filial.companyId, sc.filial.id)).contingency.nfe === 'AUTOMATIC_SVC'
    ) {
      await enterContingency(sc.filial.companyId, sc.filial.id, sc.filial.uf, answer);
      const state = await currentContingency(sc.filial.companyId, sc.filial.id, false);
      if (reached || answer.reached) {
        // This number may be at the authority under this key: it keeps both, and is consulted when the
        // authority is back; the sale's document is a contingency one with a new number (first-attempt.ts).
        doc = await noteAttempt(
          ctx,
          doc,
          'down',
          `${failureOf(answer)}; primeira tentativa mantida para consulta, NF-e emitida em contingencia com novo numero`,
        );
        const second = await contingencyDocument(ctx, doc, sc, state!, owner);
        crashPoint('after-contingency-document');
        return await settle(ctx, second.id, owner);
      }
      // Nothing of this number reached the authority: the same number is re-issued in contingency.
      doc = await reissue(ctx, doc, sc, state!, 'contingency');
      const svc = await clientOf(sc, contingencyOf(sc.filial.uf));
      doc = await transition(ctx, doc, 'SENT', { sendAttempts: doc.sendAttempts + 1, lastSentAt: new Date() }, null);
      signedXml = gunzipText(doc.signedXmlGz);
      answer = await transmit(svc, doc, signedXml, nfeAuthorization);
    }
    doc = await record(ctx, doc, answer, signedXml);
    // No verdict: the document says so (last attempt), a warn line and a counter; the recovery pass goes on.
    if (answer.kind === 'DOWN' || answer.kind === 'UNKNOWN')
      doc = await noteAttempt(ctx, doc, answer.kind === 'DOWN' ? 'down' : 'no-answer', failureOf(answer));
    return doc;
  } catch (err) {
    // Another holder (a retry, the recovery pass after this lease ran out) moved it first: its state stands.
    if (err instanceof ConflictError && err.code === 'CONCURRENT_UPDATE') return findInvoice(ctx.companyId, id, readerOf(ctx));
    throw err;
  } finally {
    await releaseLease(ctx.companyId, id, owner).catch(() => undefined);
  }
}

/**
 * The same number signed again: in contingency (the authority was down, tpEmis 6/7, a new key) or
 * corrected after a rejection. Nothing reached the authority under the old key, so nothing is lost.
 */
async function reissue(
  ctx: ActorContext & Partial<TenantContext>,
  doc: OutboundNfe,
  sc: FilialSigning,
  contingency: ContingencyState | null,
  action: 'contingency' | 'resend',
  input?: IssueInput,
  leaseOwner?: string,
): Promise<OutboundNfe> {
  const tenant: TenantContext = { grantedFiliais: '*', scopes: [], ...ctx };
  const ids = targetOf(doc);
  const target: IssueInput = { ...(input ?? {}), ...ids };
  const stored = action === 'contingency' ? { ...storedInput(doc), ...ids } : null;
  return inTransaction(ctx, async (em) => {
    const c = await computeFor(tenant, stored ?? target, em);
    const issuedAt = action === 'contingency' ? doc.issuedAt : new Date();
    const emissionType = emissionTypeOf(contingency?.mode ?? null);
    const { built, signed } = signedDocument(c, sc, {
      number: doc.number,
      series: doc.series,
      issuedAt,
      randomCode: doc.randomCode,
      contingency,
    });
    assertTransition(doc, action, 'SIGNED');
    return transition(
      ctx,
      doc,
      'SIGNED',
      {
        accessKey: built.accessKey,
        issuedAt,
        issuedAtText: built.issuedAtText,
        emissionType,
        contingencyReason: contingency?.reason ?? null,
        total: money(c.document.totals.vNF),
        summary: { ...summaryOf(c), input: toStored(stored ?? target) },
        signedXmlGz: gz(signed.xml),
        cStat: null,
        xMotivo: null,
        // A 539 naming the key this number had before is settled by that key (transmit).
        ...(action === 'contingency' && built.accessKey !== doc.accessKey
          ? { priorAccessKey: doc.accessKey, priorXmlGz: doc.signedXmlGz }
          : {}),
        ...(leaseOwner ? { leaseOwner, leaseUntil: new Date(Date.now() + invoicesConfig.leaseMs) } : {}),
      },
      action === 'resend' ? 'nfe.outbound.issued' : null,
      em,
    );
  });
}

/**
 * The sale's contingency document when its first attempt may have reached the authority: a NEW number
 * of the same série, tpEmis 6/7, rebuilt from the first attempt's stored input, holding the sale's claim
 * (moved from the first attempt in this transaction) and the issuing request's key; `contingency_of`
 * links it to the first attempt. Made once: found again after a crash.
 */
async function contingencyDocument(
  ctx: ActorContext,
  first: OutboundNfe,
  sc: FilialSigning,
  contingency: ContingencyState,
  leaseOwner: string,
): Promise<OutboundNfe> {
  const tenant: TenantContext = { grantedFiliais: '*', scopes: [], ...ctx };
  const series = await readerOf(ctx).findOneByOrFail(InvoiceSeries, { id: first.seriesId, companyId: first.companyId });
  const input: IssueInput = { ...storedInput(first), ...targetOf(first) };
  return inTransaction(ctx, async (em) => {
    const made = await em.findOneBy(OutboundNfe, { companyId: first.companyId, contingencyOf: first.id });
    if (made) return made;
    const current = await findInvoice(first.companyId, first.id, em);
    const c = await computeFor(tenant, input, em);
    const number = await takeNextNumber(em, first.companyId, series);
    const issuedAt = new Date();
    const signedFields = signedRow(ctx, c, sc, input, { series, number, issuedAt, contingency });
    // The claim is unique: it leaves the first attempt before the contingency document takes it.
    await transition(ctx, current, current.status, { claim: null }, null, em);
    return insertIssued(
      em,
      ctx,
      {
        companyId: first.companyId,
        filialId: first.filialId,
        model: first.model,
        source: first.source,
        sourceId: first.sourceId,
        fulfillmentId: first.fulfillmentId,
        salesOrderId: first.salesOrderId,
        customerId: first.customerId,
        claim: current.claim,
        ...signedFields,
        requestKey: first.requestKey,
        leaseOwner,
        contingencyOf: first.id,
      },
      { contingencyOf: encodeId('invoice', first.id) },
    );
  });
}

const decOrNull = (v: string | null | undefined) => (v === null || v === undefined ? null : new Dec(v));

/** The issuing input kept on the document (installments, payment, transport, notes), to rebuild it the same way. */
function storedInput(doc: OutboundNfe): IssueInput {
  const i = doc.summary.input ?? {};
  const t = i.transport;
  return {
    installments: i.installments?.map((d) => ({ dueDate: d.dueDate, amount: new Dec(d.amount) })),
    paymentType: i.paymentType,
    transport: t
      ? {
          mode: t.mode,
          volumes: t.volumes
            ? {
                quantity: t.volumes.quantity,
                kind: t.volumes.kind ?? null,
                grossWeight: decOrNull(t.volumes.grossWeight),
                netWeight: decOrNull(t.volumes.netWeight),
              }
            : null,
        }
      : undefined,
    notes: i.notes,
    finalConsumer: i.finalConsumer,
  };
}

function toStored(input: IssueInput): StoredIssueInput {
  const t = input.transport;
  return {
    installments: input.installments?.map((d) => ({ dueDate: d.dueDate, amount: new Dec(d.amount).toFixed(2) })),
    paymentType: input.paymentType,
    transport: t
      ? {
          mode: t.mode,
          volumes: t.volumes
            ? {
                quantity: t.volumes.quantity,
                kind: t.volumes.kind ?? null,
                grossWeight: t.volumes.grossWeight?.toString() ?? null,
                netWeight: t.volumes.netWeight?.toString() ?? null,
              }
            : null,
        }
      : undefined,
    notes: input.notes ?? null,
    ...(input.finalConsumer !== undefined ? { finalConsumer: input.finalConsumer } : {}),
  };
}

/** Correct a REJECTED document and send it again with the same number (recomputed from today's data). */
export async function resendInvoice(
  ctx: TenantContext,
  id: number,
  input: Omit<IssueInput, 'fulfillmentId' | 'salesOrderId' | 'source'>,
): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  assertAllowed(doc, 'resend');
  const sc = await filialSigning(ctx.companyId, doc.filialId);
  const owner = newOwner('resend');
  const updated = await reissue(
    ctx,
    doc,
    sc,
    await currentContingency(ctx.companyId, doc.filialId),
    'resend',
    { ...storedInput(doc), ...input },
    owner,
  );
  return settle(ctx, updated.id, owner);
}
