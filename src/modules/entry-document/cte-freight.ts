import { EntityManager } from 'typeorm';
import { Changes, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { Dec, dec, round, toFixed } from '../../core/decimal';
import { ValidationError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { Product } from '../catalog';
import { postValueAdjustment, previewValuePosting, ValueEffect, ValuePosting } from '../stock';
import { transitionConflict } from './confirm';
import { loadDocumentState, storedDraftInput } from './document-state';
import { computeDocument } from './entry-document.calculator';
import { toEventData } from './entry-document.events';
import { EntryDocumentItem } from './entities/entry-document-item.entity';
import { EntryDocument } from './entities/entry-document.entity';
import { loadFiscalContext } from './fiscal/fiscal-context';
import type { OperationClass, TaxRegime } from './fiscal/fiscal.types';
import { icmsCreditAdmitted, pisCofinsCredit, pisCofinsCreditAdmitted } from './fiscal/line-cost';

export { pisCofinsCredit };
import { lineEffect } from './fiscal/line-effect';
import { NO_CREDIT_CONTRIBUTION_CSTS } from './fiscal/operation-rules';
import {
  AUDIT_ENTITY,
  findByAccessKey,
  findDocument,
  loadInstallments,
  loadItems,
  postedMovements,
  STOCK_REFERENCE,
  updateIfCurrent,
  updateItems,
} from './entry-document.repository';
import { canDo } from './entry-document.state';

/*
 * What the CT-e module (SPEC §4b) does to entry documents, through these functions only. Freight
 * apportioned onto a DRAFT's lines becomes part of their net cost (item `apportionedFreight`, the one
 * input of the fiscal cost formula for it: cost = gross − credits + apportioned freight; unit cost
 * recomputed by the calculator, so confirm posts it). Onto a CONFIRMED document it is a value-only
 * posting on the lines' goods still in stock (stock ledger), recorded on the lines as well; the
 * entry document's cancellation takes those postings back out with the goods.
 */

export const CTE_FREIGHT_REASON = 'CTE_FREIGHT';

export type FreightMode = 'LANDED_COST' | 'STOCK_ADJUSTMENT';

export interface FreightLine {
  itemId: number;
  lineNumber: number;
  productId: number | null;
  description: string;
  /** Stock units received (or to receive, on a draft). */
  stockQuantity: Dec;
  /** The goods' value: line total less its discount. */
  value: Dec;
  unitCost: Dec;
  apportionedFreight: Dec;
  /** Whether the ICMS of freight onto this line is credited (its class, entry CFOP and the regime, as for the goods). */
  icmsCredit: boolean;
  /**
   * Whether the PIS/COFINS credit is taken on the freight onto this line (net of the freight's ICMS):
   * Lucro Real, a class that credits PIS/COFINS on the goods, goods whose acquisition gives the credit
   * (not monophasic, zero-rated…), and the freight dated before the 2027 rule set.
   */
  pisCofinsCredit: boolean;
}

export interface FreightTarget {
  doc: EntryDocument;
  /** The lines that can take freight: own stock by their class, not IGNORED, quantity > 0, stock-controlled product. */
  lines: FreightLine[];
}

export interface LineShare {
  /** The line (stable while a draft's item ids change on edits). */
  lineNumber: number;
  /** Freight onto the line (negative: taken back). */
  amount: Dec;
  /** Confirmed documents: the most the stock may absorb, in absolute value. */
  limit?: Dec;
}

export interface FreightLineOutcome {
  itemId: number;
  lineNumber: number;
  productId: number | null;
  amount: Dec;
  mode: FreightMode;
  unitCostBefore: Dec;
  /** DRAFT: the line's landed unit cost with the freight (what confirm will post). */
  unitCostAfter: Dec;
  quantityReceived: Dec;
  quantityInStock: Dec;
  /** The part of `amount` in the stock's value (all of it on a draft). */
  absorbed: Dec;
  /** CONFIRMED: the part that belongs to goods already sold (reported, not posted). */
  unabsorbed: Dec;
  averageCostBefore: Dec | null;
  averageCostAfter: Dec | null;
}

/** The live (DRAFT or CONFIRMED) entry documents of the company booked from these NF-e keys. */
export async function documentsOfKeys(em: EntityManager, companyId: number, keys: string[]): Promise<Map<string, EntryDocument>> {
  const out = new Map<string, EntryDocument>();
  for (const key of [...new Set(keys)]) {
    const doc = await findByAccessKey(em, companyId, key);
    if (doc) out.set(key, doc);
  }
  return out;
}

export const findEntryDocument = (em: EntityManager, companyId: number, id: number) => findDocument(em, companyId, id);

const eligible = (
  it: EntryDocumentItem,
  booked: { operationClass: OperationClass | null; entryCfop: string | null },
  products: Map<number, Product>,
  doc: EntryDocument,
) => {
  const status = doc.status;
  if (it.reviewStatus === 'IGNORED' || !it.stockQuantity.gt(0)) return false;
  // Freight is part of the cost of goods entering own stock; the class must be known (it decides the credit).
  if (lineEffect(booked.operationClass, booked.entryCfop, doc.purpose)?.stock !== 'OWN') return false;
  // A draft's line without product yet still gets its share (it must be mapped before confirming).
  if (it.productId === null) return status === 'DRAFT';
  return products.get(it.productId)?.stockControlled === true && (status === 'DRAFT' || it.reviewStatus === 'MATCHED');
};

/**
 * A document's lines that can take freight, in line order, each with whether the freight's ICMS is
 * credited under `taxRegime` (the CT-e's filial's). A draft's lines are booked as they would be now
 * (rules may have changed since they were stored), a confirmed document's as they were booked.
 */
export async function freightTarget(
  em: EntityManager,
  doc: EntryDocument,
  taxRegime: TaxRegime,
  freightDate: string | null = null,
): Promise<FreightTarget> {
  const state = await loadDocumentState(em, doc);
  const booking = (i: number) => (doc.status === 'DRAFT' ? state.computed.items[i] : state.items[i]);
  return {
    doc,
    lines: state.items
      .map((it, i) => ({ it, booked: booking(i) }))
      .filter(({ it, booked }) => eligible(it, booked, state.products, doc))
      .map(({ it, booked }) => ({
        itemId: it.id,
        lineNumber: it.lineNumber,
        productId: it.productId,
        description: it.description,
        stockQuantity: it.stockQuantity,
        value: it.total.minus(it.discount),
        unitCost: it.unitCost,
        apportionedFreight: it.apportionedFreight,
        icmsCredit: icmsCreditAdmitted({
          operationClass: booked.operationClass,
          baseClass: null,
          purpose: doc.purpose,
          entryCfop: booked.entryCfop,
          taxRegime,
        }),
        pisCofinsCredit:
          pisCofinsCreditAdmitted({
            operationClass: booked.operationClass,
            baseClass: null,
            purpose: doc.purpose,
            entryCfop: booked.entryCfop,
            taxRegime,
            issueDate: freightDate ?? doc.issueDate,
          }) &&
          !NO_CREDIT_CONTRIBUTION_CSTS.has(it.taxes?.pis?.cst ?? '') &&
          !NO_CREDIT_CONTRIBUTION_CSTS.has(it.taxes?.cofins?.cst ?? ''),
      })),
  };
}

function valuePosting(doc: EntryDocument, items: Map<number, EntryDocumentItem>, shares: LineShare[], actor: string): ValuePosting {
  return {
    companyId: doc.companyId,
    filialId: doc.filialId,
    reason: CTE_FREIGHT_REASON,
    referenceType: STOCK_REFERENCE,
    referenceId: doc.id,
    actor,
    lines: shares.map((s) => {
      const it = items.get(s.lineNumber)!;
      return { productId: it.productId!, amount: s.amount, receivedQuantity: it.stockQuantity, limit: s.limit, referenceLineId: it.id };
    }),
  };
}

/** The document's items by line number; a share on a line it does not have → 400. */
function itemsOf(list: EntryDocumentItem[], shares: LineShare[]): Map<number, EntryDocumentItem> {
  const items = new Map(list.map((it) => [it.lineNumber, it]));
  const unknown = shares.filter((s) => !items.has(s.lineNumber));
  if (unknown.length)
    throw new ValidationError(
      'Invalid request',
      unknown.map(() => ({ path: 'lines', message: 'a line is not on the entry document' })),
    );
  return items;
}

/** DRAFT: the stored draft recomputed with the shares added to its lines' CT-e freight (the one calculator). */
async function recomputedDraft(em: EntityManager, doc: EntryDocument, shares: LineShare[]) {
  const [items, installments] = [await loadItems(em, doc.companyId, doc.id), await loadInstallments(em, doc.companyId, doc.id)];
  const byId = itemsOf(items, shares);
  const add = new Map(shares.map((s) => [s.lineNumber, s.amount]));
  const input = storedDraftInput(doc, items, installments);
  input.items = input.items.map((it, i) => ({
    ...it,
    apportionedFreight: dec(it.apportionedFreight).plus(add.get(items[i].lineNumber) ?? 0),
  }));
  const fiscal = await loadFiscalContext(
    em,
    doc.companyId,
    doc.filialId,
    items.map((i) => i.cfop),
  );
  return { items, byId, computed: computeDocument({ ...input, entryDate: doc.entryDate, fiscal, supplierDocument: doc.supplierDocument }) };
}

const draftLineOutcome = (it: EntryDocumentItem, after: { unitCost: Dec }, amount: Dec): FreightLineOutcome => ({
  itemId: it.id,
  lineNumber: it.lineNumber,
  productId: it.productId,
  amount,
  mode: 'LANDED_COST',
  unitCostBefore: it.unitCost,
  unitCostAfter: after.unitCost,
  quantityReceived: it.stockQuantity,
  quantityInStock: it.stockQuantity,
  absorbed: amount,
  unabsorbed: new Dec(0),
  averageCostBefore: null,
  averageCostAfter: null,
});

const stockLineOutcome = (it: EntryDocumentItem, e: ValueEffect): FreightLineOutcome => ({
  itemId: it.id,
  lineNumber: it.lineNumber,
  productId: it.productId,
  amount: e.amount,
  mode: 'STOCK_ADJUSTMENT',
  unitCostBefore: it.unitCost,
  unitCostAfter: it.unitCost,
  quantityReceived: e.receivedQuantity,
  quantityInStock: e.quantityInStock,
  absorbed: e.absorbed,
  unabsorbed: e.unabsorbed,
  averageCostBefore: e.averageCostBefore,
  averageCostAfter: e.averageCostAfter,
});

/** What putting (or taking back) these shares would do, without writing. */
export async function previewFreight(
  em: EntityManager,
  doc: EntryDocument,
  shares: LineShare[],
  actor: string,
): Promise<FreightLineOutcome[]> {
  if (doc.status === 'DRAFT') {
    const { items, byId, computed } = await recomputedDraft(em, doc, shares);
    return shares.map((s) => draftLineOutcome(byId.get(s.lineNumber)!, computed.items[items.indexOf(byId.get(s.lineNumber)!)], s.amount));
  }
  const items = itemsOf(await loadItems(em, doc.companyId, doc.id), shares);
  const effects = await previewValuePosting(em, valuePosting(doc, items, shares, actor));
  return shares.map((s, i) => stockLineOutcome(items.get(s.lineNumber)!, effects[i]));
}

/**
 * Puts (positive shares) or takes back (negative) CT-e freight on a document's lines inside the
 * caller's transaction: the document's version moves first, conditionally (a concurrent confirm,
 * cancel or edit makes one of them fail with 409), then the lines (DRAFT) or the ledger (CONFIRMED),
 * audit and event. `cte` names the CT-e in the audit and the event.
 */
export async function postFreight(
  em: EntityManager,
  ctx: TenantContext,
  doc: EntryDocument,
  shares: LineShare[],
  cte: { id: string; accessKey: string; action: 'APPORTIONED' | 'REVERSED' },
): Promise<FreightLineOutcome[]> {
  if (!canDo(doc, 'apportion-freight')) return [];
  if (!(await updateIfCurrent(em, ctx.companyId, doc.id, { status: doc.status, version: doc.version }, {}))) {
    await transitionConflict(em, ctx, doc, 'apportion-freight');
  }
  let outcome: FreightLineOutcome[];
  let items: Map<number, EntryDocumentItem>;
  if (doc.status === 'DRAFT') {
    const draft = await recomputedDraft(em, doc, shares);
    items = draft.byId;
    const index = new Map(draft.items.map((it, i) => [it.lineNumber, i]));
    await updateItems(
      em,
      ctx.companyId,
      doc.id,
      shares.map((s) => ({ id: items.get(s.lineNumber)!.id, values: draft.computed.items[index.get(s.lineNumber)!] })),
    );
    outcome = shares.map((s) => draftLineOutcome(items.get(s.lineNumber)!, draft.computed.items[index.get(s.lineNumber)!], s.amount));
  } else {
    items = itemsOf(await loadItems(em, doc.companyId, doc.id), shares);
    const effects = await postValueAdjustment(em, valuePosting(doc, items, shares, ctx.actor));
    outcome = shares.map((s, i) => stockLineOutcome(items.get(s.lineNumber)!, effects[i]));
    for (const s of shares) {
      const it = items.get(s.lineNumber)!;
      await em.update(
        EntryDocumentItem,
        { id: it.id, companyId: ctx.companyId, entryDocumentId: doc.id },
        { apportionedFreight: it.apportionedFreight.plus(s.amount) },
      );
    }
  }
  const changes: Changes = { cteId: [null, cte.id] };
  for (const s of shares) {
    const it = items.get(s.lineNumber)!;
    changes[`items[${it.lineNumber}].apportionedFreight`] = [
      toFixed(it.apportionedFreight, 2),
      toFixed(it.apportionedFreight.plus(s.amount), 2),
    ];
  }
  const updated = (await findDocument(em, ctx.companyId, doc.id))!;
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: doc.id, action: `CTE_FREIGHT_${cte.action}`, changes });
  await publishEvent(em, ctx, {
    type: 'entry-document.cte-freight',
    filialId: doc.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: doc.id,
    data: {
      ...toEventData(updated),
      cte: { id: cte.id, accessKey: cte.accessKey, action: cte.action },
      lines: outcome.map((o) => ({
        lineNumber: o.lineNumber,
        amount: Number(toFixed(o.amount, 2)),
        absorbed: Number(toFixed(o.absorbed, 2)),
        mode: o.mode,
      })),
    },
  });
  return outcome;
}

/**
 * The value CT-e freight postings left on each line's goods after confirmation (added − taken back),
 * by item id: the document's cancellation takes it out with the goods.
 */
export async function costAdjustmentsByLine(em: EntityManager, doc: EntryDocument): Promise<Map<number, Dec>> {
  const out = new Map<number, Dec>();
  for (const m of await postedMovements(em, doc.companyId, doc.id, CTE_FREIGHT_REASON)) {
    if (m.referenceLineId === null) continue;
    const signed = m.direction === 'IN' ? m.valueAdjustment : m.valueAdjustment.negated();
    out.set(m.referenceLineId, round((out.get(m.referenceLineId) ?? new Dec(0)).plus(signed), 'amount'));
  }
  return out;
}
