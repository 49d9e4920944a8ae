import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec, round, sum, toFixed, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, FieldError, NotFoundError, StateConflictError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { EntryDocument } from '../entry-document';
import { ReturnSourceLine, supplierReturnSource } from '../entry-document';
import { deductSupplierReturn, restoreSupplierReturn } from '../payables';
import { applySupplierReturn } from '../purchase';
import { LedgerLine, LedgerPosting, postToLedger, previewPosting } from '../stock';
import { Filial } from '../tenancy';
import type { SupplierReturnItem } from './entities/supplier-return-item.entity';
import type { SupplierReturn, SupplierReturnStatus } from './entities/supplier-return.entity';
import { supplierReturnData } from './supplier-returns.events';
import {
  AUDIT_ENTITY,
  findReturn,
  insertItems,
  insertReturn,
  itemsOf,
  reservedLines,
  setSettlement,
  STOCK_REFERENCE,
  updateIf,
} from './supplier-returns.repository';
import { lineValues, RETURNABLE_CLASSES, returnCfopOf, ReturnLineValues, totalsOf } from './supplier-returns.rules';
import { assertTransition, SupplierReturnAction } from './supplier-returns.state';

/*
 * A return to the supplier (devolução de compra, SPEC §8, §12.4), in the transactions of its NF-e:
 *  - register: in the transaction that issues our NF-e de devolução, under the entry document's lock,
 *    every quantity is checked against received − already returned (returns of ISSUED, REJECTED or
 *    AUTHORIZED NF-e count), so two returns of the last units cannot both pass; nothing is posted.
 *  - authorize: in the transaction that records the authority's authorization: stock out at the cost
 *    the goods entered with, the entry's credits reversed in proportion, the purchase's payables
 *    abated (the rest a supplier credit), purchase-order receipts reduced, audit, event.
 *  - cancel: in the transaction that records the 110111 cancellation: all of it reversed.
 *  - reject / deny / void / resend: status only; a denied or voided NF-e frees its quantities.
 */

export const RETURN_REASON = 'SUPPLIER_RETURN';
export const CANCEL_REASON = 'SUPPLIER_RETURN_CANCEL';

export interface ReturnRequest {
  reason: string;
  items: { entryDocumentItemId: number; quantity: Dec }[];
}

export interface PlannedLine extends ReturnLineValues {
  source: ReturnSourceLine;
  lineNumber: number;
  cfop: string;
  quantity: Dec;
  /** Returned (or reserved) before this return, in the supplier's unit. */
  returnedBefore: Dec;
  stockQuantity: Dec;
  stockValue: Dec;
}

export interface ReturnPlan {
  doc: EntryDocument;
  filial: Filial;
  interstate: boolean;
  lines: PlannedLine[];
  totals: Record<keyof ReturnLineValues | 'stockValue', Dec>;
  posting: LedgerPosting;
}

const TOTAL_KEYS = [
  'productsValue',
  'discount',
  'freight',
  'insurance',
  'otherExpenses',
  'icmsBase',
  'icms',
  'ipiBase',
  'ipi',
  'icmsStBase',
  'icmsSt',
  'total',
  'creditIcms',
  'creditPis',
  'creditCofins',
  'creditIpi',
  'creditCbs',
  'creditIbs',
  'stockValue',
] as const;

/** What the returns of the document hold per entry line (supplier's units). */
export async function returnedByLine(em: EntityManager, companyId: number, entryDocumentId: number): Promise<Map<number, Dec>> {
  const out = new Map<number, Dec>();
  for (const i of await reservedLines(em, companyId, entryDocumentId))
    out.set(i.entryDocumentItemId, (out.get(i.entryDocumentItemId) ?? new Dec(0)).plus(i.quantity));
  return out;
}

/** Why a line cannot go back with a devolução de compra (null: it can). */
export function notReturnable(line: ReturnSourceLine): string | null {
  const { item } = line;
  if (!item.operationClass || !RETURNABLE_CLASSES.includes(item.operationClass))
    return `a line booked as ${item.operationClass ?? 'unclassified'} is not a purchase to return`;
  if (item.entryCfop?.startsWith('3')) return 'imported goods are returned with the import rules, not a devolução de compra';
  return null;
}

/**
 * The return as asked, computed against the document as it is (locked on MySQL when `lock`): 404 for
 * a line not of the document, 422 for a line that cannot go back or a quantity above what is left.
 */
export async function planReturn(
  em: EntityManager,
  ctx: ActorContext,
  entryDocumentId: number,
  request: ReturnRequest,
  lock: boolean,
): Promise<ReturnPlan> {
  const seen = new Set<number>();
  const repeated: FieldError[] = [];
  request.items.forEach((l, i) =>
    seen.has(l.entryDocumentItemId)
      ? repeated.push({ path: `items[${i}].entryDocumentItemId`, message: 'the same line appears twice' })
      : seen.add(l.entryDocumentItemId),
  );
  if (repeated.length) throw new ValidationError('The same line appears twice', repeated);

  const source = await supplierReturnSource(em, ctx, entryDocumentId, lock);
  const { doc } = source;
  if (doc.status !== 'CONFIRMED')
    throw new StateConflictError(
      'Entry document',
      doc.status,
      'return goods of (only a CONFIRMED document can)',
      `ENTRY_DOCUMENT_${doc.status}`,
    );
  const filial = await em.findOneByOrFail(Filial, { id: doc.filialId, companyId: ctx.companyId });
  const interstate = !!doc.supplierUf && doc.supplierUf !== filial.uf;
  const returned = await returnedByLine(em, ctx.companyId, doc.id);
  const byId = new Map(source.lines.map((l) => [l.item.id, l]));

  const missing: FieldError[] = [];
  const refused: FieldError[] = [];
  const exceeded: FieldError[] = [];
  request.items.forEach((l, i) => {
    const line = byId.get(l.entryDocumentItemId);
    if (!line) return missing.push({ path: `items[${i}].entryDocumentItemId`, message: 'not a line of this entry document' });
    const why =
      notReturnable(line) ??
      (returnCfopOf(line.item, interstate) ? null : `no devolução CFOP answers the entry CFOP ${line.item.entryCfop ?? line.item.cfop}`);
    if (why) return refused.push({ path: `items[${i}].entryDocumentItemId`, message: why });
    const left = line.item.quantity.minus(returned.get(line.item.id) ?? 0);
    if (l.quantity.gt(left))
      exceeded.push({
        path: `items[${i}].quantity`,
        message: `only ${toFixed(Dec.max(left, 0), 'quantity')} ${line.item.unit} left to return of ${toFixed(line.item.quantity, 'quantity')} received`,
      });
  });
  if (missing.length) throw Object.assign(new NotFoundError('Entry document item'), { extensions: { errors: missing } });
  if (refused.length)
    throw new BusinessRuleError('SUPPLIER_RETURN_LINE_NOT_RETURNABLE', 'Some lines cannot be returned to the supplier', {
      errors: refused,
    });
  if (exceeded.length)
    throw new BusinessRuleError('SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE', 'Some quantities exceed what is left to return', {
      errors: exceeded,
    });

  const lines: PlannedLine[] = request.items.map((l, i) => {
    const line = byId.get(l.entryDocumentItemId)!;
    const before = returned.get(line.item.id) ?? new Dec(0);
    const values = lineValues(line.item, before, l.quantity);
    const stockQuantity =
      line.entryUnitCost && line.item.productId !== null ? round(l.quantity.times(line.item.conversionFactor), 'quantity') : new Dec(0);
    return {
      ...values,
      source: line,
      lineNumber: i + 1,
      cfop: returnCfopOf(line.item, interstate)!,
      quantity: l.quantity,
      returnedBefore: before,
      stockQuantity,
      stockValue: line.entryUnitCost ? round(stockQuantity.times(line.entryUnitCost), 'amount') : new Dec(0),
    };
  });
  const stockLines: LedgerLine[] = lines
    .filter((l) => l.stockQuantity.gt(0))
    .map((l) => ({
      productId: l.source.item.productId!,
      direction: 'OUT' as const,
      quantity: l.stockQuantity,
      unitCost: l.source.entryUnitCost!,
      reversal: true,
      referenceLineId: l.source.item.id,
    }));
  return {
    doc,
    filial,
    interstate,
    lines,
    totals: totalsOf(lines, TOTAL_KEYS),
    posting: {
      companyId: ctx.companyId,
      filialId: doc.filialId,
      reason: RETURN_REASON,
      referenceType: STOCK_REFERENCE,
      referenceId: 0,
      actor: ctx.actor,
      lines: stockLines,
    },
  };
}

/** Refuses a return whose goods are no longer in stock where the filial forbids negative stock (422). */
export async function assertStock(em: EntityManager, plan: ReturnPlan): Promise<void> {
  const { shortages } = await previewPosting(em, plan.posting);
  if (!shortages.length) return;
  throw new BusinessRuleError('INSUFFICIENT_STOCK', 'The goods to return are no longer in stock', {
    errors: shortages.map((s) => {
      const i = plan.lines.findIndex((l) => l.source.item.productId === s.productId);
      return {
        path: `items[${i}].quantity`,
        message: `needs ${toFixed(s.requested, 'quantity')} in stock, ${toFixed(s.available, 'quantity')} available`,
      };
    }),
  });
}

/** In the issuing transaction: the return ISSUED with its lines (quantities reserved), audited, its event. Answers its id. */
export async function registerReturn(
  em: EntityManager,
  ctx: ActorContext,
  plan: ReturnPlan,
  reason: string,
  code: number,
  requestKey: string | null = null,
): Promise<number> {
  const { doc, totals } = plan;
  const id = await insertReturn(em, {
    companyId: ctx.companyId,
    filialId: doc.filialId,
    code,
    entryDocumentId: doc.id,
    referencedKey: doc.accessKey,
    supplierId: doc.supplierId,
    supplierDocument: doc.supplierDocument,
    supplierName: doc.supplierName,
    status: 'ISSUED',
    reason,
    invoiceId: null,
    requestKey,
    productsValue: totals.productsValue,
    discount: totals.discount,
    freight: totals.freight,
    insurance: totals.insurance,
    otherExpenses: totals.otherExpenses,
    icms: totals.icms,
    ipi: totals.ipi,
    icmsSt: totals.icmsSt,
    total: totals.total,
    stockValue: totals.stockValue,
    creditIcms: totals.creditIcms,
    creditPis: totals.creditPis,
    creditCofins: totals.creditCofins,
    creditIpi: totals.creditIpi,
    creditCbs: totals.creditCbs,
    creditIbs: totals.creditIbs,
    payablesDeducted: new Dec(0),
    supplierCredit: new Dec(0),
    actor: ctx.actor,
    authorizedAt: null,
    cancelledAt: null,
    version: 1,
  });
  await insertItems(
    em,
    plan.lines.map((l) => ({
      companyId: ctx.companyId,
      supplierReturnId: id,
      lineNumber: l.lineNumber,
      entryDocumentItemId: l.source.item.id,
      productId: l.source.item.productId,
      purchaseOrderItemId: l.source.item.purchaseOrderItemId,
      cfop: l.cfop,
      quantity: l.quantity,
      conversionFactor: l.source.item.conversionFactor,
      stockQuantity: l.stockQuantity,
      unitPrice: l.source.item.unitPrice,
      productsValue: l.productsValue,
      discount: l.discount,
      freight: l.freight,
      insurance: l.insurance,
      otherExpenses: l.otherExpenses,
      icmsBase: l.icmsBase,
      icms: l.icms,
      ipiBase: l.ipiBase,
      ipi: l.ipi,
      icmsStBase: l.icmsStBase,
      icmsSt: l.icmsSt,
      total: l.total,
      entryUnitCost: l.stockQuantity.gt(0) ? l.source.entryUnitCost : null,
      stockValue: l.stockValue,
      creditIcms: l.creditIcms,
      creditPis: l.creditPis,
      creditCofins: l.creditCofins,
      creditIpi: l.creditIpi,
      creditCbs: l.creditCbs,
      creditIbs: l.creditIbs,
    })),
  );
  const [ret, items] = [(await findReturn(em, ctx.companyId, id))!, await itemsOf(em, ctx.companyId, id)];
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: id,
    action: 'CREATED',
    changes: {
      status: [null, 'ISSUED'],
      entryDocumentId: [null, encodeId('entry-document', doc.id)],
      total: [null, toFixed(totals.total, 'amount')],
      ...Object.fromEntries(
        plan.lines.map((l) => [
          `entryDocumentItem:${encodeId('entry-document-item', l.source.item.id)}.returnedQuantity`,
          [toFixed(l.returnedBefore, 'quantity'), toFixed(l.returnedBefore.plus(l.quantity), 'quantity')],
        ]),
      ),
    },
  });
  await publishEvent(em, ctx, {
    type: 'supplier-return.issued',
    filialId: doc.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: id,
    data: supplierReturnData(ret, items),
  });
  return id;
}

/** The return as the transaction sees it (404 when it is not the company's). */
async function current(em: EntityManager, ctx: ActorContext, id: number): Promise<{ ret: SupplierReturn; items: SupplierReturnItem[] }> {
  const ret = await findReturn(em, ctx.companyId, id);
  if (!ret) throw new NotFoundError('Supplier return');
  return { ret, items: await itemsOf(em, ctx.companyId, id) };
}

async function move(
  em: EntityManager,
  ctx: ActorContext,
  ret: SupplierReturn,
  action: SupplierReturnAction,
  to: SupplierReturnStatus,
  values: Parameters<typeof updateIf>[4] = {},
): Promise<SupplierReturn> {
  assertTransition(ret, action, to);
  if (!(await updateIf(em, ctx.companyId, ret.id, { status: ret.status, version: ret.version }, { ...values, status: to }))) {
    throw new ConflictError('CONCURRENT_UPDATE', 'The supplier return changed meanwhile; retry', { retryable: true });
  }
  return (await findReturn(em, ctx.companyId, ret.id))!;
}

const stockPosting = (ret: SupplierReturn, items: SupplierReturnItem[], ctx: ActorContext, undo: boolean): LedgerPosting => ({
  companyId: ret.companyId,
  filialId: ret.filialId,
  reason: undo ? CANCEL_REASON : RETURN_REASON,
  referenceType: STOCK_REFERENCE,
  referenceId: ret.id,
  actor: ctx.actor,
  // The NF-e is authorized: the goods left, whatever the balance says now (issuing refused a shortage).
  allowNegative: true,
  lines: items
    .filter((i) => i.stockQuantity.gt(0) && i.productId !== null && i.entryUnitCost)
    .map((i) => ({
      productId: i.productId!,
      direction: undo ? ('IN' as const) : ('OUT' as const),
      quantity: i.stockQuantity,
      unitCost: i.entryUnitCost!,
      reversal: !undo,
      referenceLineId: i.id,
    })),
});

const poLines = (items: SupplierReturnItem[]) =>
  items
    .filter((i) => i.purchaseOrderItemId !== null && i.stockQuantity.gt(0))
    .map((i) => ({ purchaseOrderItemId: i.purchaseOrderItemId!, quantity: i.stockQuantity }));

/** The authority authorized our NF-e de devolução: every posting, in the caller's (recording) transaction. */
export async function authorizeReturn(
  em: EntityManager,
  ctx: ActorContext,
  id: number,
  invoice: { invoiceId: number; total: Dec } | null = null,
): Promise<SupplierReturn> {
  const found = await current(em, ctx, id);
  const { items } = found;
  // What the supplier owes back is the authorized NF-e's total (vNF); it equals the return's own figure.
  const ret = invoice ? { ...found.ret, total: invoice.total } : found.ret;
  // The status first (conditional): a second recording of the same answer finds nothing to move.
  await move(em, ctx, found.ret, 'authorize', 'AUTHORIZED', {
    authorizedAt: new Date(),
    ...(invoice ? { invoiceId: invoice.invoiceId, total: invoice.total } : {}),
  });
  // Purchase-order lines (orders, then lines, locked), then the balances, then the payables.
  await applySupplierReturn(em, ctx, { entryDocumentId: ret.entryDocumentId, supplierReturnId: ret.id, lines: poLines(items) }, false);
  const effects = await postToLedger(em, stockPosting(ret, items, ctx, false));
  const settled = await deductSupplierReturn(em, ctx, {
    supplierReturnId: ret.id,
    entryDocumentId: ret.entryDocumentId,
    filialId: ret.filialId,
    supplierId: ret.supplierId,
    supplierDocument: ret.supplierDocument,
    amount: ret.total,
  });
  const payablesDeducted = sum(settled.deductions.map((d) => d.amount));
  await setSettlement(em, ctx.companyId, ret.id, { payablesDeducted, supplierCredit: settled.supplierCredit });
  const authorized = (await findReturn(em, ctx.companyId, ret.id))!;
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: ret.id,
    action: 'AUTHORIZED',
    changes: {
      status: [ret.status, 'AUTHORIZED'],
      stockValue: [null, toFixed(ret.stockValue, 'amount')],
      creditsReversed: [
        null,
        toFixed(
          ret.creditIcms.plus(ret.creditPis).plus(ret.creditCofins).plus(ret.creditIpi).plus(ret.creditCbs).plus(ret.creditIbs),
          'amount',
        ),
      ],
      payablesDeducted: [null, toFixed(payablesDeducted, 'amount')],
      supplierCredit: [null, toFixed(settled.supplierCredit, 'amount')],
    },
  });
  await publishEvent(em, ctx, {
    type: 'supplier-return.authorized',
    filialId: ret.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: ret.id,
    data: {
      ...supplierReturnData(authorized, items),
      movements: effects.length,
      payables: settled.deductions.map((d) => ({
        payableId: encodeId('payable', d.payableId),
        installmentNumber: d.installmentNumber,
        amount: toJsonNumber(d.amount, 'amount'),
        status: d.statusAfter,
      })),
    },
  });
  return authorized;
}

/** Our authorized NF-e de devolução was cancelled (110111): every posting reversed, in the recording transaction. */
export async function cancelReturn(em: EntityManager, ctx: ActorContext, id: number): Promise<SupplierReturn> {
  const { ret, items } = await current(em, ctx, id);
  await move(em, ctx, ret, 'cancel', 'CANCELLED', { cancelledAt: new Date() });
  await applySupplierReturn(em, ctx, { entryDocumentId: ret.entryDocumentId, supplierReturnId: ret.id, lines: poLines(items) }, true);
  // The goods come back at the cost they left with.
  const effects = await postToLedger(em, stockPosting(ret, items, ctx, true));
  const restored = await restoreSupplierReturn(em, ctx, ret.id);
  const cancelled = (await findReturn(em, ctx.companyId, ret.id))!;
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: ret.id,
    action: 'CANCELLED',
    changes: {
      status: [ret.status, 'CANCELLED'],
      payablesRestored: [null, toFixed(sum(restored.deductions.map((d) => d.amount)), 'amount')],
      supplierCreditCancelled: [null, toFixed(restored.supplierCredit, 'amount')],
    },
  });
  await publishEvent(em, ctx, {
    type: 'supplier-return.cancelled',
    filialId: ret.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: ret.id,
    data: {
      ...supplierReturnData(cancelled, items),
      movements: effects.length,
      payablesRestored: toJsonNumber(sum(restored.deductions.map((d) => d.amount)), 'amount'),
      supplierCreditCancelled: toJsonNumber(restored.supplierCredit, 'amount'),
    },
  });
  return cancelled;
}

type Unposted = 'reject' | 'deny' | 'void' | 'fail';
const STATUS_OF: Record<Unposted, SupplierReturnStatus> = { reject: 'REJECTED', deny: 'DENIED', void: 'VOIDED', fail: 'FAILED' };
const EVENT_OF: Record<Unposted, string> = {
  reject: 'supplier-return.rejected',
  deny: 'supplier-return.denied',
  void: 'supplier-return.voided',
  fail: 'supplier-return.failed',
};

/**
 * The NF-e was rejected (its quantities stay reserved: it may be corrected and re-sent), denied or its
 * number voided, or no NF-e could be stored (the quantities are free again): status, audit, event; nothing posts.
 */
export async function settleReturnWithoutPosting(
  em: EntityManager,
  ctx: ActorContext,
  id: number,
  action: Unposted,
  invoiceId: number | null = null,
): Promise<SupplierReturn> {
  const { ret, items } = await current(em, ctx, id);
  const to = STATUS_OF[action];
  const moved = await move(em, ctx, ret, action, to, invoiceId === null ? {} : { invoiceId });
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: ret.id, action: to, changes: { status: [ret.status, to] } });
  await publishEvent(em, ctx, {
    type: EVENT_OF[action],
    filialId: ret.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: ret.id,
    data: supplierReturnData(moved, items),
  });
  return moved;
}
