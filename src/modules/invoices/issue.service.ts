import crypto from 'node:crypto';
import os from 'node:os';
import { EntityManager, In } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import { businessToday } from '../../core/business-date';
import { invoicesConfig } from '../../core/config/invoices';
import type { ActorContext, TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError, UpstreamError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { ComputedFiscalDocument } from '../fiscal';
import type { ProtocolResult } from '../sefaz';
import { NFE_NS } from '../sefaz';
import { Contingency, contingencyOf, emissionTypeOf } from './authority/endpoints';
import { IssuerClient, NoAnswerError } from './authority/issuer-client';
import { attachFiscalDocument, fulfillmentInstallments } from '../receivables';
import { probeSource, resolveSource, SourceTarget, targetOf } from './issue-source';
import { alreadyInvoiced, claimsUnderLock, liveHolder, lockClaimScope } from './claim-lock';
import { outcomeOf, ownerOf } from './source-hooks';
import { ContingencyState, currentContingency, enterContingency } from './contingency.service';
import { afterAuthorized } from './delivery.service';
import { OutboundNfe, OutboundNfeSummary, StoredIssueInput } from './entities/outbound-nfe.entity';
import { InvoiceSeries } from './entities/invoice-series.entity';
import { insertOutboundNfe } from './invoices.repository';
import { clientOf, docEvent, filialSigning, FilialSigning, findInvoice, gunzipText, gz, transition } from './invoice-store';
import { assertAllowed, assertTransition, UNSETTLED_STATUSES } from './invoices.state';
import { buildNfeXml, Installment, layoutText, NfeTransport } from './xml/nfe-xml';
import { signNfe } from './xml/nfe-signer';
import { takeNextNumber } from './series.service';

/*
 * Issuing an NF-e exactly once (SPEC §12.2):
 *  1. one transaction takes the série's next number (conditional UPDATE), computes the document with
 *     the tax engine, builds and signs the XML and STORES it (SIGNED) with the claim on what it bills;
 *  2. SIGNED → SENT is committed before the XML goes out;
 *  3. the authority's answer is recorded (AUTHORIZED | REJECTED | DENIED). No answer (timeout, lost
 *     connection) and 204/539 duplicity are settled by consulting the key, never by a new number.
 * A document left SIGNED/SENT by a crash is settled by whoever holds its lease next: the retry of the
 * same request (same Idempotency-Key) or the recovery pass.
 */

export interface IssueInput extends SourceTarget {
  installments?: { dueDate: string; amount: Dec }[];
  paymentType?: string;
  transport?: { mode: NfeTransport['mode']; volumes?: { quantity: number; kind?: string | null; grossWeight?: Dec | null; netWeight?: Dec | null } | null };
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

/** infCpl: the order's notes, then the Lei 12.741 approximate taxes text (federal/state as one total). */
export function additionalInfoOf(doc: ComputedFiscalDocument, notes: string | null | undefined): string {
  const vNF = doc.totals.vNF;
  const pct = vNF.isZero() ? new Dec(0) : doc.totals.vTotTrib.mul(100).div(vNF).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
  const lei = `Valor aproximado dos tributos: R$ ${brl(doc.totals.vTotTrib)} (${pct.toFixed(2).replace('.', ',')}%) conforme Lei 12.741/2012`;
  return [layoutText(notes, 2000), lei].filter(Boolean).join(' | ');
}

function installmentsOf(input: IssueInput, vNF: Dec): Installment[] {
  const list = (input.installments ?? []).map((d, i) => ({ number: String(i + 1).padStart(3, '0'), dueDate: d.dueDate, amount: money(new Dec(d.amount)) }));
  if (list.length) {
    const sum = list.reduce((s, d) => s.add(d.amount), new Dec(0));
    if (!sum.eq(money(vNF))) {
      throw new BusinessRuleError('INSTALLMENTS_MISMATCH', `The installments add up to ${sum.toFixed(2)}, the document's total is ${money(vNF).toFixed(2)}`, {
        installmentsTotal: Number(sum.toFixed(2)),
        total: Number(money(vNF).toFixed(2)),
      });
    }
  }
  return list;
}

/**
 * cobr/dup from the fulfilment's receivables (created in the fulfil transaction from the order's payment
 * terms) when the request names none; used only when they add up to vNF (taxes outside the price, such
 * as ST or IPI, make them differ: the document then carries no cobr rather than a wrong one).
 */
async function receivableInstallments(ctx: ActorContext, fulfillmentId: number | null, vNF: Dec, em: EntityManager): Promise<Installment[]> {
  if (fulfillmentId === null) return [];
  const rows = await fulfillmentInstallments(ctx, fulfillmentId, em);
  const list = rows.map((r, i) => ({ number: String(i + 1).padStart(3, '0'), dueDate: r.dueDate, amount: money(new Dec(r.amount)) }));
  const sum = list.reduce((s, d) => s.add(d.amount), new Dec(0));
  return list.length && sum.eq(money(vNF)) ? list : [];
}

function transportOf(input: IssueInput, doc: ComputedFiscalDocument): NfeTransport {
  const t = input.transport;
  const volumes = t?.volumes ? { quantity: t.volumes.quantity, kind: t.volumes.kind ?? null, grossWeight: t.volumes.grossWeight ?? null, netWeight: t.volumes.netWeight ?? null } : null;
  return { mode: t?.mode ?? (doc.totals.vFrete.gt(0) ? 0 : 9), volumes };
}

async function computeFor(ctx: TenantContext, input: IssueInput, em: EntityManager) {
  const source = await resolveSource(ctx, input, em, businessToday());
  await assertFilialAccess(ctx, source.filialId, em);
  const document = source.document;
  const installments = input.installments ? installmentsOf(input, document.totals.vNF) : (source.installments ?? (await receivableInstallments(ctx, source.fulfillmentId, document.totals.vNF, em)));
  // Devoluções, adjustments and transfers pay nothing: tPag 90.
  const unpaid = document.purpose === 3 || document.purpose === 4 || document.operation === 'TRANSFER';
  return {
    source,
    document,
    installments,
    paymentType: input.paymentType ?? source.paymentType ?? (unpaid ? '90' : installments.length ? '15' : '01'),
    transport: transportOf(input, document),
    additionalInfo: additionalInfoOf(document, input.notes ?? source.notes),
  };
}

/** The series new NF-e of the filial take: the default one of model 55, created as série 1 from number 1 on first use. */
async function seriesFor(companyId: number, filialId: number, model: number): Promise<InvoiceSeries> {
  const find = () => readerOf(NO_UNIT).findOne(InvoiceSeries, { where: { companyId, filialId, model, isDefault: true } });
  const found = await find();
  if (found) return found;
  try {
    await inTransaction(NO_UNIT, (em) => em.insert(InvoiceSeries, { companyId, filialId, model, series: 1, nextNumber: 1, isDefault: true }));
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
  const c = await computeFor(ctx, input, em);
  const series = await em.findOne(InvoiceSeries, { where: { companyId: ctx.companyId, filialId: c.source.filialId, model: 55, isDefault: true } });
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

function summaryOf(c: Awaited<ReturnType<typeof computeFor>>): OutboundNfeSummary {
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
  };
}

const randomCode = (number: number) => {
  for (;;) {
    const code = String(crypto.randomInt(10_000_000, 99_999_999));
    if (Number(code) !== number) return code;
  }
};

const describe = (source: string) => (source === 'FULFILLMENT' ? 'This fulfilment' : source === 'ORDER' ? 'This order' : `This ${source.toLowerCase().replace('_', ' ')}`);

/**
 * Issues the NF-e of a fulfilment, an order or a registered source (document-sources.ts). A retry with
 * the issuing request's Idempotency-Key resumes (or answers) its document; another request for
 * something that already has a live document is a 409.
 */
export async function issueInvoice(ctx: TenantContext, input: IssueInput, requestKey: string | null): Promise<{ doc: OutboundNfe; created: boolean }> {
  const probe = await probeSource(ctx, input, readerOf(ctx));
  await assertFilialAccess(ctx, probe.filialId);
  // The usual answer without a lock; the transaction below checks again under it (claim-lock.ts).
  const existing = await readerOf(ctx).findOne(OutboundNfe, { where: { companyId: ctx.companyId, claim: In([probe.claim, ...probe.conflictingClaims]) } });
  const resumes = (holder: Pick<OutboundNfe, 'requestKey' | 'claim'>) => !!requestKey && holder.requestKey === requestKey && holder.claim === probe.claim;
  if (existing) {
    if (resumes(existing)) return { doc: UNSETTLED_STATUSES.includes(existing.status) ? await settle(ctx, existing.id) : existing, created: false };
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
      const holder = await liveHolder(em, ctx.companyId, await claimsUnderLock(ctx, input, probe, em));
      if (holder) {
        if (resumes(holder)) return { resume: holder.id };
        throw alreadyInvoiced(probe.source, holder);
      }
      const c = await computeFor(ctx, input, em);
      // The number, in this transaction: a rollback gives it back, a commit stores the document that uses it.
      const number = await takeNextNumber(em, ctx.companyId, series);
      crashPoint('after-numbering');
      const issuedAt = new Date();
      const code = randomCode(number);
      const built = buildNfeXml(c.document, {
        number,
        series: series.series,
        issuedAt,
        emissionType: emissionTypeOf(contingency?.mode ?? null),
        contingency: contingency ? { at: contingency.since, reason: contingency.reason } : null,
        randomCode: code,
        tpAmb: sc.tpAmb,
        transport: c.transport,
        installments: c.installments,
        paymentType: c.paymentType,
        additionalInfo: c.additionalInfo,
      });
      const signed = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, sc.signer);
      const saved = await insertOutboundNfe(em, {
        companyId: ctx.companyId,
        filialId: c.source.filialId,
        seriesId: series.id,
        model: 55,
        series: series.series,
        number,
        accessKey: built.accessKey,
        source: c.source.source,
        sourceId: c.source.sourceId,
        fulfillmentId: c.source.fulfillmentId,
        salesOrderId: c.source.salesOrderId,
        customerId: c.source.customerId,
        claim: c.source.claim,
        status: 'SIGNED',
        emissionType: emissionTypeOf(contingency?.mode ?? null),
        contingencyReason: contingency?.reason ?? null,
        issuedAtText: built.issuedAtText,
        issuedAt,
        randomCode: code,
        total: money(c.document.totals.vNF),
        summary: { ...summaryOf(c), input: toStored(input) },
        signedXmlGz: gz(signed.xml),
        actor: ctx.actor.slice(0, 100),
        requestKey: requestKey?.slice(0, 255) ?? null,
        leaseOwner: owner,
        leaseUntil: new Date(Date.now() + invoicesConfig.leaseMs),
      });
      await recordAudit(em, ctx, {
        entity: 'invoice',
        entityId: saved.id,
        action: 'ISSUED',
        changes: diff({}, { status: 'SIGNED', series: saved.series, number, accessKey: saved.accessKey, total: saved.total.toFixed(2) }),
      });
      await publishEvent(em, ctx, { type: 'nfe.outbound.issued', filialId: saved.filialId, aggregateType: 'invoice', aggregateId: saved.id, data: docEvent(saved) });
      return saved;
    });
    // This request's own document, committed by an earlier attempt with the same key (a race of retries).
    if ('resume' in made) return { doc: await settle(ctx, made.resume), created: false };
    doc = made;
  } catch (err) {
    if (isUniqueViolation(err)) {
      const holder = await liveHolder(readerOf(ctx), ctx.companyId, [probe.claim, ...probe.conflictingClaims]);
      throw holder ? alreadyInvoiced(probe.source, holder) : new ConflictError('ALREADY_INVOICED', `${describe(probe.source)} got its NF-e concurrently`);
    }
    throw err;
  }
  crashPoint('after-signing');
  return { doc: await settle(ctx, doc.id, owner), created: true };
}

/** Takes (or keeps) the lease on a document; false when another holder's lease is still running. */
async function takeLease(companyId: number, id: number, owner: string): Promise<boolean> {
  const now = new Date();
  const r = await inTransaction(NO_UNIT, (em) =>
    em
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + invoicesConfig.leaseMs) })
      .where('id = :id AND company_id = :companyId AND (lease_owner IS NULL OR lease_owner = :owner OR lease_until < :now)', { id, companyId, owner, now })
      .execute(),
  );
  return !!r.affected;
}

async function releaseLease(companyId: number, id: number, owner: string): Promise<void> {
  await inTransaction(NO_UNIT, (em) =>
    em.createQueryBuilder().update(OutboundNfe).set({ leaseOwner: null, leaseUntil: null }).where('id = :id AND company_id = :companyId AND lease_owner = :owner', { id, companyId, owner }).execute(),
  );
}

/** Codes of a denial (uso denegado): the number is used, the document is not valid. */
const DENIED = new Set(['110', '205', '301', '302', '303']);

type Answer =
  | { kind: 'AUTHORIZED' | 'DENIED'; prot: ProtocolResult }
  | { kind: 'REJECTED'; cStat: string; xMotivo: string }
  | { kind: 'DOWN'; cStat: string; xMotivo: string }
  | { kind: 'UNKNOWN'; reason: string };

/** What the authority says of our key (NFeConsultaProtocolo4). */
async function consult(client: IssuerClient, accessKey: string): Promise<Answer> {
  try {
    const s = await client.situation(accessKey);
    if ((s.cStat === '100' || s.cStat === '101' || s.cStat === '150' || s.cStat === '151') && s.protocol?.cStat === '100') return { kind: 'AUTHORIZED', prot: s.protocol };
    if (s.protocol && DENIED.has(s.protocol.cStat)) return { kind: 'DENIED', prot: s.protocol };
    if (s.cStat === '217') return { kind: 'UNKNOWN', reason: 'not at the authority' };
    if (s.cStat === '108' || s.cStat === '109') return { kind: 'DOWN', cStat: s.cStat, xMotivo: s.xMotivo };
    return { kind: 'UNKNOWN', reason: `consulted: ${s.cStat} ${s.xMotivo}` };
  } catch (err) {
    if (err instanceof NoAnswerError || err instanceof UpstreamError) return { kind: 'UNKNOWN', reason: (err as Error).message };
    throw err;
  }
}

/** Sends the stored XML and reads the authority's verdict; lost answers and duplicity end in a consultation. */
async function transmit(client: IssuerClient, doc: OutboundNfe, signedXml: string): Promise<Answer> {
  let reply;
  try {
    reply = await client.authorize(signedXml, String(doc.id));
  } catch (err) {
    if (err instanceof NoAnswerError) return consult(client, doc.accessKey);
    throw err;
  }
  crashPoint('after-authorized');
  const prot = reply.protocol;
  if (prot) {
    if (prot.cStat === '100') return { kind: 'AUTHORIZED', prot };
    if (DENIED.has(prot.cStat)) return { kind: 'DENIED', prot };
    // Duplicity: this key (204) or this number under another key (539) is at the authority — its record decides.
    if (prot.cStat === '204' || prot.cStat === '539') {
      const c = await consult(client, doc.accessKey);
      return c.kind === 'UNKNOWN' ? { kind: 'REJECTED', cStat: prot.cStat, xMotivo: prot.xMotivo } : c;
    }
    return { kind: 'REJECTED', cStat: prot.cStat, xMotivo: prot.xMotivo };
  }
  if (reply.cStat === '108' || reply.cStat === '109') return { kind: 'DOWN', cStat: reply.cStat, xMotivo: reply.xMotivo };
  return { kind: 'REJECTED', cStat: reply.cStat, xMotivo: reply.xMotivo };
}

const procOf = (signedNfe: string, protXml: string) => `<nfeProc xmlns="${NFE_NS}" versao="4.00">${signedNfe.replace(/^<\?xml[^>]*>/, '')}${protXml}</nfeProc>`;

/** `signedXml`: the document's XML when the caller has it unzipped already (the one it sent). */
async function record(ctx: ActorContext, doc: OutboundNfe, answer: Answer, signedXml?: string): Promise<OutboundNfe> {
  if (answer.kind === 'AUTHORIZED' || answer.kind === 'DENIED') {
    assertTransition(doc, 'record', answer.kind);
    const at = answer.prot.receivedAt ? new Date(answer.prot.receivedAt) : new Date();
    const kind = answer.kind;
    const prot = answer.prot;
    return inTransaction(ctx, async (em) => {
      const after = await transition(
        ctx,
        doc,
        kind,
        { cStat: prot.cStat, xMotivo: prot.xMotivo.slice(0, 255), protocol: prot.protocol, authorizedAt: at, procXmlGz: gz(procOf(signedXml ?? gunzipText(doc.signedXmlGz), prot.xml)) },
        kind === 'AUTHORIZED' ? 'nfe.outbound.authorized' : 'nfe.outbound.denied',
        em,
      );
      // The fulfilment's receivables now originate in this fiscal document (same transaction).
      if (kind === 'AUTHORIZED' && doc.fulfillmentId !== null) await attachFiscalDocument(em, ctx, { fulfillmentId: doc.fulfillmentId, fiscalDocumentId: doc.id, accessKey: doc.accessKey });
      // The source's owner reacts in this transaction (stock, payables, credits): all or nothing with the protocol.
      const owner = ownerOf(after);
      if (owner) {
        if (kind === 'AUTHORIZED') await owner.provider.onAuthorized?.(em, ctx, outcomeOf(after));
        else await owner.provider.onReleased?.(em, ctx, { ...outcomeOf(after), status: 'DENIED' });
      }
      return after;
    });
  }
  if (answer.kind === 'REJECTED') {
    assertTransition(doc, 'record', 'REJECTED');
    const rejected = answer;
    return inTransaction(ctx, async (em) => {
      const after = await transition(ctx, doc, 'REJECTED', { cStat: rejected.cStat, xMotivo: rejected.xMotivo.slice(0, 255) }, 'nfe.outbound.rejected', em);
      await ownerOf(after)?.provider.onReleased?.(em, ctx, { ...outcomeOf(after), status: 'REJECTED' });
      return after;
    });
  }
  return doc;
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
    const sc = await filialSigning(ctx.companyId, doc.filialId);
    const contingency: Contingency | null = doc.emissionType === 6 ? 'SVC-AN' : doc.emissionType === 7 ? 'SVC-RS' : null;
    const client = await clientOf(sc, contingency);
    // Sent before (a crash or a lost answer): the authority's record comes first, and decides.
    if (doc.status === 'SENT') {
      const known = await consult(client, doc.accessKey);
      if (known.kind === 'AUTHORIZED' || known.kind === 'DENIED') return await record(ctx, doc, known);
    }
    assertAllowed(doc, 'send');
    doc = await transition(ctx, doc, 'SENT', { sendAttempts: doc.sendAttempts + 1, lastSentAt: new Date() }, null);
    crashPoint('after-sending');
    let signedXml = gunzipText(doc.signedXmlGz);
    let answer = await transmit(client, doc, signedXml);
    if (answer.kind === 'DOWN' && !contingency) {
      // The authority stopped: enter contingency for the filial and re-issue this number there.
      await enterContingency(sc.filial.companyId, sc.filial.id, sc.filial.uf, answer);
      const state = await currentContingency(sc.filial.companyId, sc.filial.id, false);
      doc = await reissue(ctx, doc, sc, state!, 'contingency');
      const svc = await clientOf(sc, contingencyOf(sc.filial.uf));
      doc = await transition(ctx, doc, 'SENT', { sendAttempts: doc.sendAttempts + 1, lastSentAt: new Date() }, null);
      signedXml = gunzipText(doc.signedXmlGz);
      answer = await transmit(svc, doc, signedXml);
    }
    doc = await record(ctx, doc, answer, signedXml);
    if (doc.status === 'AUTHORIZED') afterAuthorized(ctx, doc);
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
    const built = buildNfeXml(c.document, {
      number: doc.number,
      series: doc.series,
      issuedAt,
      emissionType,
      contingency: contingency ? { at: contingency.since, reason: contingency.reason } : null,
      randomCode: doc.randomCode,
      tpAmb: sc.tpAmb,
      transport: c.transport,
      installments: c.installments,
      paymentType: c.paymentType,
      additionalInfo: c.additionalInfo,
    });
    const signed = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, sc.signer);
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
        ...(leaseOwner ? { leaseOwner, leaseUntil: new Date(Date.now() + invoicesConfig.leaseMs) } : {}),
      },
      action === 'resend' ? 'nfe.outbound.issued' : null,
      em,
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
          volumes: t.volumes ? { quantity: t.volumes.quantity, kind: t.volumes.kind ?? null, grossWeight: decOrNull(t.volumes.grossWeight), netWeight: decOrNull(t.volumes.netWeight) } : null,
        }
      : undefined,
    notes: i.notes,
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
            ? { quantity: t.volumes.quantity, kind: t.volumes.kind ?? null, grossWeight: t.volumes.grossWeight?.toString() ?? null, netWeight: t.volumes.netWeight?.toString() ?? null }
            : null,
        }
      : undefined,
    notes: input.notes ?? null,
  };
}

/** Correct a REJECTED document and send it again with the same number (recomputed from today's data). */
export async function resendInvoice(ctx: TenantContext, id: number, input: Omit<IssueInput, 'fulfillmentId' | 'salesOrderId' | 'source'>): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  assertAllowed(doc, 'resend');
  const sc = await filialSigning(ctx.companyId, doc.filialId);
  const owner = newOwner('resend');
  const updated = await reissue(ctx, doc, sc, await currentContingency(ctx.companyId, doc.filialId), 'resend', { ...storedInput(doc), ...input }, owner);
  return settle(ctx, updated.id, owner);
}
