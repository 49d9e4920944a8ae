import { Dec, SCALE, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { FreightLineOutcome } from '../entry-document';
import { toInboundDto } from '../inbound-nfe';
import { toPayableDto } from '../payables';
import type { ApportionPlan, ApportionPreview, ApportionResult, PlannedLine, Problem } from './apportion.service';
import type { CancelPreview } from './cancel.service';
import type { CteDetail, NfeLink } from './cte.service';
import type { CteAllocation } from './entities/cte-allocation.entity';
import type { Cte } from './entities/cte.entity';
import type { CteInspection } from './xml/inspect';

/* Response shapes of the CT-e module: hashids, decimals rounded to their scale (SPEC §0). */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Dec | null | undefined) => toJsonNumber(v, 'amount');
const quantity = (v: Dec | null | undefined) => toJsonNumber(v, 'quantity');
const cost = (v: Dec | null | undefined) => toJsonNumber(v, 'cost');

const QUANTITY_FIELDS = new Set(['quantity']);
const RATE_FIELDS = new Set(['rate']);

function plain(value: unknown, field: string): unknown {
  if (value instanceof Dec)
    return toJsonNumber(value, QUANTITY_FIELDS.has(field) ? SCALE.quantity : RATE_FIELDS.has(field) ? SCALE.percent : SCALE.amount);
  if (Array.isArray(value)) return value.map((v) => plain(v, field));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, k)]));
  return value;
}

export function toCteDto(c: Cte) {
  return {
    id: encodeId('cte', c.id),
    filialId: encodeId('filial', c.filialId),
    accessKey: c.accessKey,
    status: c.status,
    carrier: { document: c.issuerDocument, name: c.issuerName, stateRegistration: c.issuerStateRegistration, uf: c.issuerUf },
    series: c.series,
    number: c.number,
    issueDate: c.issueDate,
    issuedAt: iso(c.issuedAt),
    environment: c.environment,
    protocol: c.protocolNumber,
    authorizedAt: iso(c.authorizedAt),
    payerRole: c.payerRole,
    serviceTotal: amount(c.serviceTotal),
    receivable: amount(c.receivable),
    icms: amount(c.icmsValue),
    nfeCount: c.nfeCount,
    apportionment: c.apportionMethod
      ? {
          method: c.apportionMethod,
          amount: amount(c.apportionedAmount),
          recoverableIcms: amount(c.recoverableIcms),
          pisCredit: amount(c.pisCredit),
          cofinsCredit: amount(c.cofinsCredit),
          soldShare: amount(c.soldShare),
          entryDate: c.entryDate,
          apportionedAt: iso(c.apportionedAt),
        }
      : null,
    supplierId: encodeOptionalId('supplier', c.supplierId),
    validation: { valid: c.validation.valid, blockingCodes: c.validation.blockingCodes, warnings: c.validation.warnings },
    cancelledAt: iso(c.cancelledAt),
    cancelReason: c.cancelReason,
    version: c.version,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

export const toParsedCteDto = (i: CteInspection) => plain(i.cte, '') as Record<string, unknown>;

export const toLinkDto = (l: NfeLink) => ({
  accessKey: l.accessKey,
  inbound: l.inbound ? toInboundDto(l.inbound) : null,
  entryDocument: l.entryDocument
    ? {
        id: encodeId('entry-document', l.entryDocument.id),
        filialId: encodeId('filial', l.entryDocument.filialId),
        status: l.entryDocument.status,
        number: l.entryDocument.number,
        total: amount(l.entryDocument.total),
        version: l.entryDocument.version,
      }
    : null,
});

export const toAllocationDto = (a: CteAllocation) => ({
  entryDocumentId: encodeId('entry-document', a.entryDocumentId),
  lineNumber: a.lineNumber,
  itemId: encodeId('entry-document-item', a.itemId),
  productId: encodeOptionalId('product', a.productId),
  mode: a.mode,
  basis: toJsonNumber(a.basis, 4),
  share: amount(a.share),
  icmsCredit: amount(a.icmsCredit),
  pisCredit: amount(a.pisCredit),
  cofinsCredit: amount(a.cofinsCredit),
  amount: amount(a.amount),
  quantityReceived: quantity(a.quantityReceived),
  quantityInStock: quantity(a.quantityInStock),
  absorbed: amount(a.absorbed),
  soldShare: amount(a.unabsorbed),
  reversed: a.reversedAt ? { amount: amount(a.reversedAmount), soldShare: amount(a.reversedUnabsorbed), at: iso(a.reversedAt) } : null,
});

export function toDetailDto(d: CteDetail) {
  return {
    ...toCteDto(d.cte),
    document: toParsedCteDto(d.inspection),
    report: d.inspection.report,
    nfe: d.links.map(toLinkDto),
    allocations: d.allocations.map(toAllocationDto),
    payables: d.payables.map((p) => toPayableDto(p)),
  };
}

const problemDto = (p: Problem) => ({ code: p.code, message: p.message, ...(p.details ? { details: p.details } : {}) });

/** A planned line's split: its weight, its share of vTPrest, its part of the ICMS and what of it is credited. */
const splitDto = (l: PlannedLine) => ({
  basis: toJsonNumber(l.basis, 4),
  share: amount(l.share),
  icms: amount(l.icms),
  icmsCredit: amount(l.icmsCredit),
  pisCredit: amount(l.pisCredit),
  cofinsCredit: amount(l.cofinsCredit),
});

const outcomeDto = (o: FreightLineOutcome, planned?: PlannedLine) => ({
  itemId: encodeId('entry-document-item', o.itemId),
  lineNumber: o.lineNumber,
  productId: encodeOptionalId('product', o.productId),
  ...(planned ? splitDto(planned) : {}),
  amount: amount(o.amount),
  mode: o.mode,
  unitCostBefore: cost(o.unitCostBefore),
  unitCostAfter: cost(o.unitCostAfter),
  quantityReceived: quantity(o.quantityReceived),
  quantityInStock: quantity(o.quantityInStock),
  absorbed: amount(o.absorbed),
  soldShare: amount(o.unabsorbed),
  averageCostBefore: o.averageCostBefore === null ? null : cost(o.averageCostBefore),
  averageCostAfter: o.averageCostAfter === null ? null : cost(o.averageCostAfter),
});

function planDto(plan: ApportionPlan, outcomes: Map<number, FreightLineOutcome[]>) {
  const soldShare = [...outcomes.values()].flat().reduce((s, o) => s.plus(o.unabsorbed), new Dec(0));
  return {
    method: plan.method,
    taxRegime: plan.regime,
    freight: {
      serviceTotal: amount(plan.freight.serviceTotal),
      icms: amount(plan.freight.icms),
      recoverableIcms: amount(plan.freight.recoverableIcms),
      pisCredit: amount(plan.freight.pisCredit),
      cofinsCredit: amount(plan.freight.cofinsCredit),
      amount: amount(plan.freight.amount),
    },
    documents: plan.documents.map((d) => {
      const byLine = new Map((outcomes.get(d.doc.id) ?? []).map((o) => [o.lineNumber, o]));
      return {
        entryDocumentId: encodeId('entry-document', d.doc.id),
        status: d.doc.status,
        number: d.doc.number,
        accessKey: d.doc.accessKey,
        amount: amount(d.amount),
        lines: d.lines.map((l) => {
          const o = byLine.get(l.line.lineNumber);
          return o
            ? outcomeDto(o, l)
            : {
                itemId: encodeId('entry-document-item', l.line.itemId),
                lineNumber: l.line.lineNumber,
                productId: encodeOptionalId('product', l.line.productId),
                ...splitDto(l),
                amount: amount(l.amount),
              };
        }),
      };
    }),
    unbookedNfe: plan.unbooked,
    soldShare: amount(soldShare),
    entryDate: plan.entryDate,
    payables: plan.payables.map((p) => ({ number: p.number, dueDate: p.dueDate, amount: amount(p.amount) })),
    warnings: plan.warnings.map(problemDto),
  };
}

export const toApportionPreviewDto = (p: ApportionPreview) => ({
  cteId: encodeId('cte', p.plan.cte.id),
  status: p.plan.cte.status,
  version: p.plan.cte.version,
  ...planDto(p.plan, p.outcomes),
  blockingProblems: p.plan.blocking.map(problemDto),
});

export const toApportionResultDto = (r: ApportionResult) => ({
  cte: toCteDto(r.cte),
  ...planDto(r.plan, r.outcomes),
  payables: r.payables.map((p) => toPayableDto(p)),
});

export const toCancelDto = (c: CancelPreview) => ({
  cteId: encodeId('cte', c.cte.id),
  status: c.cte.status,
  version: c.cte.version,
  documents: c.plan.documents.map((d) => ({
    entryDocumentId: encodeId('entry-document', d.entryDocumentId),
    status: d.doc?.status ?? null,
    lines: (c.outcomes.get(d.entryDocumentId) ?? []).map((o) => outcomeDto(o)),
  })),
  payables: c.plan.payables.map((p) => toPayableDto(p)),
  blockingProblems: c.plan.blocking.map(problemDto),
});
