import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, sum, toFixed } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StaleVersionError, ValidationError } from '../../core/errors';
import { assertTransition, canDo, conflictCode, forbidden } from './cte.state';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertPeriodOpen } from '../fiscal-periods';
import { businessToday } from '../../core/business-date';
import type { EntryDocument } from '../entry-document';
import {
  FreightLine,
  FreightLineOutcome,
  freightTarget,
  LineShare,
  pisCofinsCredit,
  postFreight,
  previewFreight,
  resolveSupplier,
} from '../entry-document';
import { storedXml } from '../inbound-nfe';
import { parseNfe } from '../fiscal-xml';
import type { Payable } from '../payables';
import { createCtePayables } from '../payables';
import type { TaxRegime } from '../tenancy';
import { getFilialFiscalSettings } from '../tenancy';
import { splitOverDocuments } from './apportionment';
import { CTE_AUDIT, cteEventData, findAccessibleCte, NfeLink, resolveNfeLinks, storedCteXml } from './cte.service';
import { ApportionMethod, Cte } from './entities/cte.entity';
import { findCte, insertAllocations, updateCteIf } from './cte.repository';
import { inspectCteXml } from './xml/inspect';

/*
 * Apportioning a CT-e's freight (SPEC §4b). buildPlan is the one description of what applying does —
 * the freight (vTPrest less the ICMS the filial's regime recovers), its split over the linked entry
 * documents and their lines, the carrier's payables, the problems — so the preview answers exactly
 * what apply posts. Apply flips RECEIVED → APPORTIONED first (conditional: two concurrent applies,
 * one wins), then puts each document's shares on it through the entry-document module.
 */

export interface Problem {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface ApportionOptions {
  method?: ApportionMethod;
  /** WEIGHT: each line's gross weight; MANUAL: each line's amount. Lines by entry-document item id. */
  lines?: { itemId: number; weight?: Dec; amount?: Dec }[];
  /** The freight's entry date: the payable's due date without installments (default today). */
  entryDate?: string;
  /** Apportion over the booked NF-e even when some the CT-e carried are not booked. */
  ignoreUnbookedNfe?: boolean;
  version?: number;
}

export interface PlannedLine {
  line: FreightLine;
  basis: Dec;
  /** The line's share of vTPrest. */
  share: Dec;
  /** Its part of the CT-e's ICMS. */
  icms: Dec;
  /** The part of that ICMS credited (icmsCreditAdmitted: the line's class, entry CFOP, the regime). */
  icmsCredit: Dec;
  /** PIS and COFINS credited on the share net of its ICMS (Lucro Real; Leis 10.637/2002 and 10.833/2003 art. 3). */
  pisCredit: Dec;
  cofinsCredit: Dec;
  /** What goes onto the line as apportioned freight: share − ICMS credit − PIS credit − COFINS credit. */
  amount: Dec;
}

export interface PlannedDocument {
  doc: EntryDocument;
  amount: Dec;
  lines: PlannedLine[];
}

export interface ApportionPlan {
  cte: Cte;
  method: ApportionMethod;
  regime: TaxRegime;
  freight: { serviceTotal: Dec; icms: Dec; recoverableIcms: Dec; pisCredit: Dec; cofinsCredit: Dec; amount: Dec };
  links: NfeLink[];
  documents: PlannedDocument[];
  unbooked: string[];
  entryDate: string;
  payables: { number: number; dueDate: string; amount: Dec }[];
  blocking: Problem[];
  warnings: Problem[];
}

/** The gross weight the NF-e declared (transp/vol/pesoB), null when it declares none. */
async function declaredGrossWeight(em: EntityManager, ctx: TenantContext, link: NfeLink): Promise<Dec | null> {
  if (!link.inbound?.hasXml) return null;
  const nfe = await parseNfe(await storedXml(em, ctx, link.inbound));
  const weights = (nfe.transport?.volumes ?? []).map((v) => v.grossWeight).filter((w): w is Dec => w !== null);
  return weights.length ? sum(weights) : null;
}

/** The carrier's payables: its cobr/dup when they add up to what is billed, else one at the entry date for vRec. */
async function plannedPayables(em: EntityManager, cte: Cte, entryDate: string) {
  const { cte: doc, report } = await inspectCteXml(await storedCteXml(em, cte), null);
  const billing = report.checks.find((c) => c.check === 'BILLING');
  if (billing?.outcome === 'PASS' && doc.billing)
    return doc.billing.installments.map((d, i) => ({ number: i + 1, dueDate: d.dueDate!, amount: d.amount }));
  return cte.receivable.gt(0) ? [{ number: 1, dueDate: entryDate, amount: cte.receivable }] : [];
}

export async function buildPlan(em: EntityManager, ctx: TenantContext, cte: Cte, options: ApportionOptions): Promise<ApportionPlan> {
  const method = options.method ?? 'VALUE';
  const found: Findings = { blocking: [], warnings: [] };
  const { blocking, warnings } = found;
  if (!canDo(cte, 'apportion'))
    blocking.push({ code: conflictCode(cte.status), message: `The CT-e is ${cte.status}; only a RECEIVED CT-e is apportioned` });
  const { taxRegime: regime } = await getFilialFiscalSettings(em, ctx.companyId, cte.filialId);

  const links = await resolveNfeLinks(em, ctx, cte);
  const { booked, unbooked } = bookedLinks(cte, links, options, found);
  const targets = await freightTargets(em, cte, booked, regime, found);
  const given = givenLines(options, targets, found);
  const split = await splitService(em, ctx, { cte, method, targets, given }, found);
  const documents = plannedDocuments(cte, split, regime);
  const recoverableIcms = sum(documents.flatMap((d) => d.lines.map((l) => l.icmsCredit)));
  const pisTotal = sum(documents.flatMap((d) => d.lines.map((l) => l.pisCredit)));
  const cofinsTotal = sum(documents.flatMap((d) => d.lines.map((l) => l.cofinsCredit)));

  const entryDate = options.entryDate ?? businessToday();
  return {
    cte,
    method,
    regime,
    freight: {
      serviceTotal: cte.serviceTotal,
      icms: cte.icmsValue,
      recoverableIcms,
      pisCredit: pisTotal,
      cofinsCredit: cofinsTotal,
      amount: sum(documents.map((d) => d.amount)),
    },
    links,
    documents,
    unbooked,
    entryDate,
    payables: await plannedPayables(em, cte, entryDate),
    blocking,
    warnings,
  };
}

/** What keeps the plan from being applied (blocking) and what it only warns of. */
interface Findings {
  blocking: Problem[];
  warnings: Problem[];
}

type FreightTarget = { link: NfeLink; doc: EntryDocument; lines: FreightLine[] };
type GivenLine = NonNullable<ApportionOptions['lines']>[number];
type ServiceSplit = { doc: EntryDocument; lines: { line: FreightLine; basis: Dec; share: Dec }[] }[];
type Regime = Awaited<ReturnType<typeof getFilialFiscalSettings>>['taxRegime'];

/** The NF-e the CT-e carried that are booked as entry documents of its filial; the others named. */
function bookedLinks(cte: Cte, links: NfeLink[], options: ApportionOptions, { blocking, warnings }: Findings) {
  const booked = links.filter((l) => l.entryDocument && l.entryDocument.filialId === cte.filialId);
  const unbooked = links.filter((l) => !booked.includes(l)).map((l) => l.accessKey);
  if (unbooked.length) {
    const problem = {
      code: 'CTE_NFE_NOT_BOOKED',
      message: `${unbooked.length} NF-e the CT-e carried ${unbooked.length === 1 ? 'is' : 'are'} not booked in this filial: import ${unbooked.length === 1 ? 'it' : 'them'} first, or apportion over the others (ignoreUnbookedNfe)`,
      details: { accessKeys: unbooked },
    };
    (options.ignoreUnbookedNfe ? warnings : blocking).push(problem);
  }
  if (!booked.length)
    blocking.push({
      code: 'CTE_NO_LINKED_DOCUMENTS',
      message: 'None of the NF-e the CT-e carried is booked as an entry document of this filial',
    });

  return { booked, unbooked };
}

/** Each booked document's lines that can take freight (entering own stock); a document without any blocks. */
async function freightTargets(
  em: EntityManager,
  cte: Cte,
  booked: NfeLink[],
  regime: Regime,
  { blocking, warnings }: Findings,
): Promise<FreightTarget[]> {
  const targets: FreightTarget[] = [];
  for (const link of booked) {
    const doc = link.entryDocument!;
    if (doc.nfeCancelledAt)
      warnings.push({
        code: 'NFE_CANCELLED_BY_ISSUER',
        message: `The issuer cancelled NF-e ${link.accessKey}`,
        details: { entryDocumentId: encodeId('entry-document', doc.id) },
      });
    const target = await freightTarget(em, doc, regime, cte.issueDate);
    if (!target.lines.length) {
      blocking.push({
        code: 'CTE_DOCUMENT_WITHOUT_LINES',
        message: `Entry document ${doc.number} has no line entering own stock that can take the freight`,
        details: { entryDocumentId: encodeId('entry-document', doc.id) },
      });
      continue;
    }
    targets.push({ link, doc, lines: target.lines });
  }

  return targets;
}

/** The lines the request gives (manual shares, weights): each must be one of the targets' lines. */
function givenLines(options: ApportionOptions, targets: FreightTarget[], { blocking }: Findings): Map<number, GivenLine> {
  const given = new Map((options.lines ?? []).map((l) => [l.itemId, l]));
  const known = new Set(targets.flatMap((t) => t.lines.map((l) => l.itemId)));
  const strangers = [...given.keys()].filter((id) => !known.has(id));
  if (strangers.length) {
    blocking.push({
      code: 'CTE_LINE_NOT_LINKED',
      message: `${strangers.length} line(s) given are not lines of the linked entry documents that can take freight`,
      details: { itemIds: strangers.map((id) => encodeId('entry-document-item', id)) },
    });
  }

  return given;
}

/** vTPrest split over the lines (each line's share): by the manual shares, or by value, quantity or weight. */
async function splitService(
  em: EntityManager,
  ctx: TenantContext,
  plan: { cte: Cte; method: NonNullable<ApportionOptions['method']>; targets: FreightTarget[]; given: Map<number, GivenLine> },
  found: Findings,
): Promise<ServiceSplit> {
  const { cte, method, targets, given } = plan;
  const { blocking } = found;
  if (method === 'MANUAL') {
    const total = sum([...given.values()].map((l) => l.amount ?? new Dec(0)));
    if (!total.eq(cte.serviceTotal)) {
      blocking.push({
        code: 'CTE_MANUAL_SHARES_MISMATCH',
        message: `The manual shares add up to ${total.toFixed(2)}; the CT-e's vTPrest is ${cte.serviceTotal.toFixed(2)}`,
        details: { shares: Number(total.toFixed(2)), serviceTotal: Number(cte.serviceTotal.toFixed(2)) },
      });
    }
    return targets.map((t) => ({
      doc: t.doc,
      lines: t.lines.map((line) => ({
        line,
        basis: given.get(line.itemId)?.amount ?? new Dec(0),
        share: given.get(line.itemId)?.amount ?? new Dec(0),
      })),
    }));
  }
  if (blocking.some((b) => b.code === 'CTE_NO_LINKED_DOCUMENTS')) return [];
  const weighted = await weighTargets(em, ctx, plan, found);
  if (
    weighted.length &&
    !blocking.some((b) => b.code === 'CTE_WEIGHT_UNKNOWN') &&
    sum(weighted.map((w) => w.weight ?? sum(w.lines.map((l) => l.weight)))).isZero()
  ) {
    blocking.push({
      code: 'CTE_NOTHING_TO_WEIGH',
      message: `The linked lines add up to zero by ${method.toLowerCase()}: choose another method`,
    });
  }
  return splitOverDocuments(cte.serviceTotal, weighted).map((d) => ({
    doc: d.document.doc,
    lines: d.lines.map((l) => ({ line: l.item, basis: l.weight, share: l.amount })),
  }));
}

/** Each target's lines weighed by the method: value, quantity, the weights given, or the NF-e's gross weight. */
async function weighTargets(
  em: EntityManager,
  ctx: TenantContext,
  { method, targets, given }: { method: NonNullable<ApportionOptions['method']>; targets: FreightTarget[]; given: Map<number, GivenLine> },
  { blocking }: Findings,
) {
  const weighted: { document: FreightTarget; weight?: Dec; lines: { item: FreightLine; weight: Dec }[] }[] = [];
  for (const t of targets) {
    let weight: Dec | undefined;
    let lines: { item: FreightLine; weight: Dec }[];
    if (method === 'VALUE') lines = t.lines.map((l) => ({ item: l, weight: l.value }));
    else if (method === 'QUANTITY') lines = t.lines.map((l) => ({ item: l, weight: l.stockQuantity }));
    else if (given.size) {
      const missing = t.lines.filter((l) => given.get(l.itemId)?.weight === undefined);
      if (missing.length)
        blocking.push({
          code: 'CTE_WEIGHT_MISSING',
          message: `Entry document ${t.doc.number}: give the gross weight of every line (or none, to use the NF-e's)`,
          details: { lineNumbers: missing.map((l) => l.lineNumber) },
        });
      lines = t.lines.map((l) => ({ item: l, weight: given.get(l.itemId)?.weight ?? new Dec(0) }));
    } else {
      // The NF-e declares the gross weight of its volumes, not of its lines: its lines share it by quantity.
      const declared = await declaredGrossWeight(em, ctx, t.link);
      if (!declared?.gt(0))
        blocking.push({
          code: 'CTE_WEIGHT_UNKNOWN',
          message: `NF-e ${t.link.accessKey} declares no gross weight (transp/vol/pesoB): give the lines' weights`,
          details: { accessKey: t.link.accessKey },
        });
      weight = declared ?? new Dec(0);
      lines = t.lines.map((l) => ({ item: l, weight: l.stockQuantity }));
    }
    weighted.push({ document: t, weight, lines });
  }
  return weighted;
}

/** The ICMS follows the shares; each line's credits (ICMS, PIS/COFINS on the freight net of its ICMS) and cost. */
function plannedDocuments(cte: Cte, split: ServiceSplit, regime: Regime): PlannedDocument[] {
  const icmsSplit = splitOverDocuments(
    cte.icmsValue,
    split.map((d) => ({ document: d.doc, lines: d.lines.map((l) => ({ item: l, weight: l.share })) })),
  );
  return icmsSplit.map((d) => {
    const lines = d.lines.map(({ item, amount: icms }) => {
      const icmsCredit = item.line.icmsCredit ? icms : new Dec(0);
      // The freight net of its ICMS (the ICMS of the service, credited or not, is out of the base, Lei 14.592/2023), per line, to the cent.
      const { pis: pisCredit, cofins: cofinsCredit } = item.line.pisCofinsCredit
        ? pisCofinsCredit(item.share.minus(icms), regime)
        : { pis: new Dec(0), cofins: new Dec(0) };
      return {
        line: item.line,
        basis: item.basis,
        share: item.share,
        icms,
        icmsCredit,
        pisCredit,
        cofinsCredit,
        amount: item.share.minus(icmsCredit).minus(pisCredit).minus(cofinsCredit),
      };
    });
    return { doc: d.document, amount: sum(lines.map((l) => l.amount)), lines };
  });
}

const sharesOf = (d: PlannedDocument): LineShare[] =>
  d.lines.filter((l) => !l.amount.isZero()).map((l) => ({ lineNumber: l.line.lineNumber, amount: l.amount }));

export interface ApportionPreview {
  plan: ApportionPlan;
  outcomes: Map<number, FreightLineOutcome[]>;
}

function validateOptions(options: ApportionOptions): void {
  const method = options.method ?? 'VALUE';
  const errors = (options.lines ?? []).flatMap((l, i) => [
    ...(l.amount !== undefined && method !== 'MANUAL' ? [{ path: `lines[${i}].amount`, message: 'amount is for the MANUAL method' }] : []),
    ...(l.weight !== undefined && method !== 'WEIGHT' ? [{ path: `lines[${i}].weight`, message: 'weight is for the WEIGHT method' }] : []),
    ...(method === 'MANUAL' && l.amount === undefined
      ? [{ path: `lines[${i}].amount`, message: "the MANUAL method needs each line's amount" }]
      : []),
  ]);
  const ids = (options.lines ?? []).map((l) => l.itemId);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) errors.push({ path: `lines[${i}].itemId`, message: 'the line is given more than once' });
  });
  if (method === 'MANUAL' && !(options.lines ?? []).length)
    errors.push({ path: 'lines', message: 'the MANUAL method needs the lines and their amounts' });
  if (errors.length) throw new ValidationError('Invalid request', errors);
}

/** apportion-preview: the plan and, per line, what it does (landed cost of a draft, ledger effect of a confirmed document). */
export async function previewApportion(ctx: TenantContext, id: number, options: ApportionOptions): Promise<ApportionPreview> {
  validateOptions(options);
  const em = readerOf(ctx);
  const cte = await findAccessibleCte(ctx, id, em);
  const plan = await buildPlan(em, ctx, cte, options);
  const outcomes = new Map<number, FreightLineOutcome[]>();
  if (!plan.blocking.length)
    for (const d of plan.documents) outcomes.set(d.doc.id, await previewFreight(em, d.doc, sharesOf(d), ctx.actor));
  return { plan, outcomes };
}

export interface ApportionResult {
  cte: Cte;
  plan: ApportionPlan;
  outcomes: Map<number, FreightLineOutcome[]>;
  payables: Payable[];
}

const money = (d: Dec) => Number(toFixed(d, 'amount'));

export async function applyApportion(ctx: TenantContext, id: number, options: ApportionOptions): Promise<ApportionResult> {
  validateOptions(options);
  await findAccessibleCte(ctx, id);
  return inTransaction(ctx, async (em) => {
    const cte = await claimForApportion(em, ctx, id, options);
    const plan = await buildPlan(em, ctx, cte, options);
    if (plan.blocking.length) {
      throw new BusinessRuleError(
        'CTE_NOT_APPORTIONABLE',
        `The CT-e cannot be apportioned: ${plan.blocking.map((b) => b.code).join(', ')}`,
        { problems: plan.blocking },
      );
    }
    const supplier = await resolveSupplier(em, ctx, {
      supplier: { document: cte.issuerDocument, name: cte.issuerName, stateRegistration: cte.issuerStateRegistration, uf: cte.issuerUf },
    });
    const outcomes = await postShares(em, ctx, cte, plan);
    const soldShare = sum([...outcomes.values()].flat().map((o) => o.unabsorbed));
    await em.update(
      Cte,
      { id: cte.id, companyId: ctx.companyId },
      {
        apportionMethod: plan.method,
        apportionedAmount: plan.freight.amount,
        recoverableIcms: plan.freight.recoverableIcms,
        pisCredit: plan.freight.pisCredit,
        cofinsCredit: plan.freight.cofinsCredit,
        soldShare,
        entryDate: plan.entryDate,
        supplierId: supplier.supplierId,
      },
    );
    const payables = await createCtePayables(
      em,
      {
        companyId: ctx.companyId,
        filialId: cte.filialId,
        cteId: cte.id,
        supplierId: supplier.supplierId,
        supplierDocument: supplier.supplierDocument,
        supplierName: supplier.supplierName,
        documentNumber: cte.number,
        issueDate: cte.issueDate,
      },
      plan.payables,
    );
    const applied = (await findCte(em, ctx.companyId, cte.id))!;
    await recordApportioned(em, ctx, { applied, plan, soldShare, payables });
    return { cte: applied, plan, outcomes, payables };
  });
}

/**
 * The CT-e locked and flipped RECEIVED → APPORTIONED before anything is posted: a concurrent apply waits on the
 * row, then finds nothing to update (409). The CT-e's month (its D100) and today's (the freight moves the goods'
 * cost now) must both be open.
 */
async function claimForApportion(em: EntityManager, ctx: TenantContext, id: number, options: ApportionOptions): Promise<Cte> {
  const cte = await findCte(em, ctx.companyId, id, true);
  if (!cte) throw new NotFoundError('CT-e', 'CTE_NOT_FOUND');
  assertTransition(cte, 'apportion', 'APPORTIONED');
  await assertPeriodOpen(em, ctx.companyId, cte.filialId, [cte.issueDate, new Date()]);
  if (options.version !== undefined && options.version !== cte.version) throw new StaleVersionError('CT-e', cte.version);
  const flipped = await updateCteIf(
    em,
    ctx.companyId,
    cte.id,
    { status: 'RECEIVED', version: cte.version },
    { status: 'APPORTIONED', apportionedAt: new Date() },
  );
  if (!flipped) {
    const now = await findCte(em, ctx.companyId, cte.id);
    if (now && !canDo(now, 'apportion')) throw forbidden(now, 'apportion');
    throw new StaleVersionError('CT-e', now?.version ?? cte.version);
  }
  return cte;
}

/** Each planned document's shares put on it through the entry-document module, and the CT-e's allocations recorded. */
async function postShares(
  em: EntityManager,
  ctx: TenantContext,
  cte: Cte,
  plan: ApportionPlan,
): Promise<Map<number, FreightLineOutcome[]>> {
  const cteHash = encodeId('cte', cte.id);
  const outcomes = new Map<number, FreightLineOutcome[]>();
  for (const d of plan.documents) {
    const shares = sharesOf(d);
    if (!shares.length) continue;
    const outcome = await postFreight(em, ctx, d.doc, shares, { id: cteHash, accessKey: cte.accessKey, action: 'APPORTIONED' });
    outcomes.set(d.doc.id, outcome);
    await insertAllocations(em, allocationRows(ctx, cte, d, outcome));
  }
  return outcomes;
}

/** A document's allocation rows: what was planned per line (basis, share, credits) beside what posting it did. */
function allocationRows(ctx: TenantContext, cte: Cte, d: PlannedDocument, outcome: FreightLineOutcome[]) {
  const planned = new Map(d.lines.map((l) => [l.line.lineNumber, l]));
  return outcome.map((o) => {
    const line = planned.get(o.lineNumber)!;
    return {
      companyId: ctx.companyId,
      cteId: cte.id,
      entryDocumentId: d.doc.id,
      lineNumber: o.lineNumber,
      itemId: o.itemId,
      productId: o.productId,
      mode: o.mode,
      basis: line.basis,
      share: line.share,
      icmsCredit: line.icmsCredit,
      pisCredit: line.pisCredit,
      cofinsCredit: line.cofinsCredit,
      amount: o.amount,
      quantityReceived: o.quantityReceived,
      quantityInStock: o.quantityInStock,
      absorbed: o.absorbed,
      unabsorbed: o.unabsorbed,
      reversedAmount: new Dec(0),
      reversedUnabsorbed: new Dec(0),
      reversedAt: null,
    };
  });
}

/** The audit row and the cte.apportioned event of an applied apportionment. */
async function recordApportioned(
  em: EntityManager,
  ctx: TenantContext,
  { applied, plan, soldShare, payables }: { applied: Cte; plan: ApportionPlan; soldShare: Dec; payables: Payable[] },
): Promise<void> {
  await recordAudit(em, ctx, {
    entity: CTE_AUDIT,
    entityId: applied.id,
    action: 'APPORTIONED',
    changes: {
      status: ['RECEIVED', 'APPORTIONED'],
      apportionMethod: [null, plan.method],
      apportionedAmount: ['0.00', toFixed(plan.freight.amount, 'amount')],
      recoverableIcms: ['0.00', toFixed(plan.freight.recoverableIcms, 'amount')],
      pisCredit: ['0.00', toFixed(plan.freight.pisCredit, 'amount')],
      cofinsCredit: ['0.00', toFixed(plan.freight.cofinsCredit, 'amount')],
      soldShare: ['0.00', toFixed(soldShare, 'amount')],
      entryDate: [null, plan.entryDate],
    },
  });
  await publishEvent(em, ctx, {
    type: 'cte.apportioned',
    filialId: applied.filialId,
    aggregateType: CTE_AUDIT,
    aggregateId: applied.id,
    data: {
      ...cteEventData(applied),
      method: plan.method,
      amount: money(plan.freight.amount),
      recoverableIcms: money(plan.freight.recoverableIcms),
      pisCredit: money(plan.freight.pisCredit),
      cofinsCredit: money(plan.freight.cofinsCredit),
      soldShare: money(soldShare),
      documents: plan.documents.map((d) => ({
        entryDocumentId: encodeId('entry-document', d.doc.id),
        status: d.doc.status,
        amount: money(d.amount),
      })),
      payables: payables.map((p) => ({ id: encodeId('payable', p.id), dueDate: p.dueDate, amount: money(p.amount) })),
    },
  });
}
