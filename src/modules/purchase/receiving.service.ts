import { EntityManager } from 'typeorm';
import { Changes } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec, round, toJsonNumber } from '../../core/decimal';
import { AppError, BusinessRuleError, ConflictError, FieldError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { getPurchaseTolerances } from '../tenancy';
import type { PurchaseOrderItem } from './entities/purchase-order-item.entity';
import type { PurchaseOrderReceipt } from './entities/purchase-order-receipt.entity';
import type { PurchaseOrder } from './entities/purchase-order.entity';
import { netUnitPrice, openQuantityOf, receivingStatus } from './purchase.lines';
import {
  confirmedReceiptsOf,
  findItems,
  findOrders,
  insertReceipts,
  itemsOfOrders,
  lockOrdersWithItems,
  markReceiptsCancelled,
  moveOrdersIf,
  openItems,
  orderIdsOfItems,
  OrderWithItems,
  ordersByCode,
  ordersWithItems,
  writeLineQuantities,
} from './purchase.repository';
import { assertTransition } from './purchase.state';
import { auditOrder, publishOrderEvent } from './services/shared';
import { computeMatch, linkProblems, MatchFinding, matchView, MatchView, ReceiptLine, ReceiptSource } from './three-way-match';
import type { TenantRow } from '../../core/db/sql';

/*
 * The purchase module's side of receiving goods, for other modules: entry documents link their lines
 * to order lines (validated here), show the three-way match, and receive or revert on confirm and
 * cancel; the NF-e import links its lines automatically. Every function works in the caller's
 * transaction (`em`); the ones that change quantities lock the orders and then their lines, both in
 * ascending id order, before reading what they change.
 */

export type { MatchFinding, MatchView, ReceiptLine, ReceiptSource } from './three-way-match';

const ZERO = new Dec(0);

export interface LinkTarget {
  filialId: number;
  supplierDocument: string;
}

export interface OrderLineLink {
  /** Where the id came from in the request, e.g. `items[3].purchaseOrderItemId`. */
  path: string;
  purchaseOrderItemId: number;
  productId: number | null;
}

/**
 * Refuses links an entry-document line cannot make: an unknown line (another company's too) → 404
 * PURCHASE_ORDER_ITEM_NOT_FOUND; another filial, another supplier, an order that cannot receive
 * (DRAFT, CANCELLED, CLOSED) or another product → 422 PURCHASE_ORDER_LINE_NOT_LINKABLE. Both name
 * the paths.
 */
export async function assertLinkableOrderLines(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  links: OrderLineLink[],
  target: LinkTarget,
): Promise<void> {
  if (!links.length) return;
  const items = new Map(
    (
      await findItems(
        em,
        ctx.companyId,
        links.map((l) => l.purchaseOrderItemId),
      )
    ).map((i) => [i.id, i]),
  );
  const missing: FieldError[] = links
    .filter((l) => !items.has(l.purchaseOrderItemId))
    .map((l) => ({ path: l.path, message: 'purchase-order line not found' }));
  if (missing.length)
    throw new AppError('not_found', 'PURCHASE_ORDER_ITEM_NOT_FOUND', 'Purchase-order line not found', { errors: missing });
  const orders = new Map(
    (
      await findOrders(
        em,
        ctx.companyId,
        [...items.values()].map((i) => i.purchaseOrderId),
      )
    ).map((o) => [o.id, o]),
  );
  const errors: FieldError[] = [];
  const codes = new Set<string>();
  for (const l of links) {
    const item = items.get(l.purchaseOrderItemId)!;
    for (const p of linkProblems(orders.get(item.purchaseOrderId)!, item, { ...target, productId: l.productId })) {
      errors.push({ path: l.path, message: p.message });
      codes.add(p.code);
    }
  }
  if (errors.length)
    throw new BusinessRuleError('PURCHASE_ORDER_LINE_NOT_LINKABLE', 'A line cannot be linked to that purchase-order line', {
      errors,
      reasons: [...codes],
    });
}

/* ---- automatic links (NF-e import) ---- */

export interface AutoLinkLine {
  productId: number | null;
  quantity: Dec;
  conversionFactor: Dec;
  /** xPed and nItemPed as the supplier wrote them. */
  orderCode: string | null;
  orderLine: string | null;
  /** Lines that would receive nothing (IGNORED, or not booked into own stock as bought) are not linked. */
  receivesNothing?: boolean;
}

export type LinkSource = 'ORDER_REFERENCE' | 'OPEN_LINE';

export interface AutoLink {
  purchaseOrderItemId: number | null;
  source: LinkSource | null;
}

/** The order code in an xPed: its only run of digits ("4512", "PC-004512"), else none. */
export function parseOrderCode(xPed: string | null): number | null {
  const runs = xPed?.match(/\d+/g);
  if (!runs || runs.length !== 1 || runs[0].replace(/^0+/, '').length > 9) return null;
  const n = Number(runs[0]);
  return n > 0 ? n : null;
}

const parseLine = (nItemPed: string | null): number | null =>
  nItemPed && /^\s*\d{1,6}\s*$/.test(nItemPed) ? Number(nItemPed) || null : null;

/**
 * Links an invoice's lines to order lines: xPed + nItemPed first (the order of that code, its line of
 * that number, when the link is valid); else the supplier's oldest open line of the same product in
 * the filial that still has something open after the lines before it took theirs; else none.
 * Two queries for the references and one for the open lines, whatever the number of lines.
 */
export async function linkReceiptLines(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  target: LinkTarget,
  lines: AutoLinkLine[],
): Promise<AutoLink[]> {
  const codes = lines.map((l) => (l.orderCode && l.orderLine ? parseOrderCode(l.orderCode) : null));
  const referenced = await ordersByCode(
    em,
    ctx.companyId,
    codes.filter((c): c is number => c !== null),
  );
  const byCode = new Map(referenced.map((o) => [o.code, o]));
  const referencedLines = new Map(
    (
      await itemsOfOrders(
        em,
        ctx.companyId,
        referenced.map((o) => o.id),
      )
    ).map((i) => [`${i.purchaseOrderId}:${i.lineNumber}`, i]),
  );
  const productIds = [...new Set(lines.map((l) => l.productId).filter((p): p is number => p !== null))];
  const candidates = productIds.length
    ? await openItems(em, ctx.companyId, target.filialId, { supplierDocument: target.supplierDocument, productIds })
    : [];
  const remaining = new Map(candidates.map((i) => [i.id, openQuantityOf(i)]));
  const byProduct = new Map<number, PurchaseOrderItem[]>();
  for (const c of candidates) byProduct.set(c.productId, [...(byProduct.get(c.productId) ?? []), c]);
  const take = (id: number, qty: Dec) => remaining.has(id) && remaining.set(id, remaining.get(id)!.minus(qty));

  return lines.map((l, i) => {
    if (l.receivesNothing) return { purchaseOrderItemId: null, source: null };
    const stockQuantity = round(l.quantity.times(l.conversionFactor), 'quantity');
    const order = codes[i] !== null ? byCode.get(codes[i]!) : undefined;
    const item = order ? referencedLines.get(`${order.id}:${parseLine(l.orderLine)}`) : undefined;
    if (order && item && !linkProblems(order, item, { ...target, productId: l.productId }).length) {
      take(item.id, stockQuantity);
      return { purchaseOrderItemId: item.id, source: 'ORDER_REFERENCE' };
    }
    const open = l.productId === null ? undefined : byProduct.get(l.productId)?.find((c) => remaining.get(c.id)!.gt(0));
    if (!open) return { purchaseOrderItemId: null, source: null };
    take(open.id, stockQuantity);
    return { purchaseOrderItemId: open.id, source: 'OPEN_LINE' };
  });
}

/* ---- the match ---- */

const linkedOrderIds = (em: EntityManager, companyId: number, lines: ReceiptLine[]): Promise<number[]> =>
  orderIdsOfItems(
    em,
    companyId,
    lines.filter((l) => l.purchaseOrderItemId !== null).map((l) => l.purchaseOrderItemId!),
  );

/**
 * The three-way match of a document's linked lines as the orders stand now (previews: preview-import,
 * the draft detail, confirm-preview). Null when no line is linked. Reads only.
 */
export async function threeWayMatch(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  source: ReceiptSource,
): Promise<{ findings: MatchFinding[]; view: MatchView } | null> {
  if (!source.lines.some((l) => l.purchaseOrderItemId !== null)) return null;
  const orders = await ordersWithItems(em, ctx.companyId, await linkedOrderIds(em, ctx.companyId, source.lines));
  const match = computeMatch(source, orders, await getPurchaseTolerances(em, ctx.companyId));
  return { findings: match.findings, view: matchView(match) };
}

/** The entry document being confirmed, as receipts record it. */
export interface ReceiptDocument extends ReceiptSource {
  entryDocumentId: number;
  number: string;
  series: string;
  accessKey: string | null;
  issueDate: string;
  entryDate: string;
}

const lineChange = (changes: Changes, item: PurchaseOrderItem, field: 'receivedQuantity' | 'cancelledQuantity', after: Dec) => {
  const before = item[field];
  if (!before.eq(after)) changes[`items[${item.lineNumber}].${field}`] = [before.toFixed(4), after.toFixed(4)];
};

/**
 * Confirmation of an entry document: under the order lines' locks, the match is computed again; when
 * nothing of it blocks, the received quantities, the receipts and the orders' states are written, with
 * audit and `purchase-order.received` events. Answers the findings either way: the caller folds them
 * into its own checks and refuses (rolling all of this back) when any blocks.
 */
export async function applyReceipts(em: EntityManager, ctx: ActorContext, doc: ReceiptDocument): Promise<{ findings: MatchFinding[] }> {
  if (!doc.lines.some((l) => l.purchaseOrderItemId !== null)) return { findings: [] };
  const locked = await lockOrdersWithItems(em, ctx.companyId, await linkedOrderIds(em, ctx.companyId, doc.lines));
  const match = computeMatch(doc, locked, await getPurchaseTolerances(em, ctx.companyId));
  if (match.findings.some((f) => f.blocksConfirmation) || !match.received.size) return { findings: match.findings };

  const receivedAt = new Date();
  const receipts: TenantRow<PurchaseOrderReceipt>[] = match.lines
    .filter((l) => l.receives)
    .map((l) => ({
      companyId: ctx.companyId,
      filialId: doc.filialId,
      purchaseOrderId: l.order!.id,
      purchaseOrderItemId: l.item!.id,
      entryDocumentId: doc.entryDocumentId,
      entryDocumentItemId: l.line.entryDocumentItemId ?? 0,
      lineNumber: l.line.lineNumber,
      documentNumber: doc.number,
      documentSeries: doc.series,
      accessKey: doc.accessKey,
      issueDate: doc.issueDate,
      entryDate: doc.entryDate,
      quantity: l.thisReceipt,
      invoiceQuantity: l.line.quantity,
      invoiceUnit: l.line.unit,
      conversionFactor: l.line.conversionFactor,
      unitPrice: l.invoiceUnitPrice,
      orderUnitPrice: round(netUnitPrice(l.item!), 'price'),
      status: 'CONFIRMED',
      receivedAt,
      cancelledAt: null,
    }));
  await writeQuantities(
    em,
    ctx,
    locked,
    match.received,
    'receive',
    (item, qty) => ({ receivedQuantity: item.receivedQuantity.plus(qty), cancelledQuantity: item.cancelledQuantity }),
    doc.entryDocumentId,
  );
  await insertReceipts(em, receipts);
  return { findings: match.findings };
}

/**
 * Cancellation of a confirmed entry document: its receipts are marked CANCELLED and their quantities
 * taken back from the order lines, moving the orders back (APPROVED when nothing stays received). A
 * CLOSED order stays CLOSED: the quantity taken back becomes cancelled, as closing left it.
 */
export async function revertReceipts(em: EntityManager, ctx: ActorContext, entryDocumentId: number): Promise<void> {
  const receipts = await confirmedReceiptsOf(em, ctx.companyId, entryDocumentId);
  if (!receipts.length) return;
  const locked = await lockOrdersWithItems(
    em,
    ctx.companyId,
    receipts.map((r) => r.purchaseOrderId),
  );
  const back = new Map<number, Dec>();
  for (const r of receipts) back.set(r.purchaseOrderItemId, (back.get(r.purchaseOrderItemId) ?? ZERO).plus(r.quantity));
  await writeQuantities(
    em,
    ctx,
    locked,
    back,
    'revert-receipt',
    (item, qty, order) => {
      const receivedQuantity = item.receivedQuantity.minus(qty);
      const cancelledQuantity = order.status === 'CLOSED' ? Dec.max(ZERO, item.quantity.minus(receivedQuantity)) : item.cancelledQuantity;
      return { receivedQuantity, cancelledQuantity };
    },
    entryDocumentId,
  );
  await markReceiptsCancelled(em, ctx.companyId, entryDocumentId, new Date());
}

/** Lines of an entry document sent back to the supplier (quantities in stock units, as received). */
export interface SupplierReturnReceipt {
  entryDocumentId: number;
  supplierReturnId: number;
  lines: { purchaseOrderItemId: number; quantity: Dec }[];
}

/**
 * A supplier return authorized (`undo` false) or cancelled (`undo` true): the order lines the entry
 * document's lines were received against give back (or take again) the returned quantity, under
 * the orders' and lines' locks, with the orders' statuses, audit and events as a receipt's reversal
 * (or a receipt). A CLOSED order stays CLOSED, its cancelled quantity following as when it closed.
 */
export async function applySupplierReturn(em: EntityManager, ctx: ActorContext, ret: SupplierReturnReceipt, undo: boolean): Promise<void> {
  const byItem = new Map<number, Dec>();
  for (const l of ret.lines) byItem.set(l.purchaseOrderItemId, (byItem.get(l.purchaseOrderItemId) ?? ZERO).plus(l.quantity));
  if (!byItem.size) return;
  const locked = await lockOrdersWithItems(em, ctx.companyId, await orderIdsOfItems(em, ctx.companyId, [...byItem.keys()]));
  // A CLOSED order receives nothing new: giving its quantity back is a correction of its receipts too.
  const closed = locked.filter((o) => o.order.status === 'CLOSED');
  const open = locked.filter((o) => o.order.status !== 'CLOSED');
  for (const [orders, action] of [
    [open, undo ? 'receive' : 'revert-receipt'],
    [closed, 'revert-receipt'],
  ] as const) {
    if (orders.length) await writeSupplierReturn(em, ctx, orders, byItem, action, undo, ret);
  }
}

async function writeSupplierReturn(
  em: EntityManager,
  ctx: ActorContext,
  locked: OrderWithItems[],
  byItem: Map<number, Dec>,
  action: 'receive' | 'revert-receipt',
  undo: boolean,
  ret: SupplierReturnReceipt,
): Promise<void> {
  await writeQuantities(
    em,
    ctx,
    locked,
    byItem,
    action,
    (item, qty, order) => {
      const receivedQuantity = Dec.max(ZERO, undo ? item.receivedQuantity.plus(qty) : item.receivedQuantity.minus(qty));
      const cancelledQuantity = order.status === 'CLOSED' ? Dec.max(ZERO, item.quantity.minus(receivedQuantity)) : item.cancelledQuantity;
      return { receivedQuantity, cancelledQuantity };
    },
    ret.entryDocumentId,
    ret.supplierReturnId,
  );
}

/** Writes the lines' new quantities and each touched order's status, audit and event (receipt or reversal). */
async function writeQuantities(
  em: EntityManager,
  ctx: ActorContext,
  locked: OrderWithItems[],
  quantities: Map<number, Dec>,
  action: 'receive' | 'revert-receipt',
  next: (item: PurchaseOrderItem, qty: Dec, order: PurchaseOrder) => { receivedQuantity: Dec; cancelledQuantity: Dec },
  entryDocumentId: number,
  supplierReturnId?: number,
): Promise<void> {
  const updates: { id: number; receivedQuantity: Dec; cancelledQuantity: Dec; isOpen: boolean }[] = [];
  const touched: {
    order: PurchaseOrder;
    items: PurchaseOrderItem[];
    changes: Changes;
    lines: { purchaseOrderItemId: string; lineNumber: number; quantity: number | null }[];
  }[] = [];
  for (const { order, items } of locked) {
    const changes: Changes = {};
    const lines: (typeof touched)[number]['lines'] = [];
    const after = items.map((item) => {
      const qty = quantities.get(item.id);
      if (!qty) return item;
      const values = next(item, qty, order);
      const isOpen = order.status !== 'CLOSED' && openQuantityOf({ quantity: item.quantity, ...values }).gt(0);
      lineChange(changes, item, 'receivedQuantity', values.receivedQuantity);
      lineChange(changes, item, 'cancelledQuantity', values.cancelledQuantity);
      updates.push({ id: item.id, ...values, isOpen });
      lines.push({
        purchaseOrderItemId: encodeId('purchase-order-item', item.id),
        lineNumber: item.lineNumber,
        quantity: toJsonNumber(qty, 'quantity'),
      });
      return { ...item, ...values, isOpen };
    });
    if (lines.length) touched.push({ order, items: after, changes, lines });
  }
  await writeLineQuantities(em, ctx.companyId, updates);
  // Every touched order's new status (and version) in one conditional UPDATE; the orders are locked, so it cannot miss.
  const moves = touched.map(({ order, items }) => ({ order, status: receivingStatus(order.status, items) }));
  moves.forEach((m) => assertTransition(m.order, action, m.status));
  if ((await moveOrdersIf(em, ctx.companyId, moves)) !== moves.length) {
    throw new ConflictError('CONCURRENT_UPDATE', 'A purchase order changed while receiving; retry', { retryable: true });
  }
  for (const [i, { order, changes, lines }] of touched.entries()) {
    const moved: PurchaseOrder = { ...order, status: moves[i].status, version: order.version + 1 };
    if (moved.status !== order.status) changes.status = [order.status, moved.status];
    const data = {
      previousStatus: order.status,
      complete: moved.status === 'RECEIVED',
      entryDocumentId: encodeId('entry-document', entryDocumentId),
      ...(supplierReturnId === undefined ? {} : { supplierReturnId: encodeId('supplier-return', supplierReturnId) }),
      lines,
    };
    if (supplierReturnId !== undefined) changes.supplierReturnId = [null, encodeId('supplier-return', supplierReturnId)];
    await auditOrder(em, ctx, moved, action === 'receive' ? 'RECEIVED' : 'RECEIPT_REVERTED', changes);
    await publishOrderEvent(em, ctx, moved, action === 'receive' ? 'received' : 'receipt-reverted', data);
  }
}

/* ---- the supplier's open orders (preview-import) ---- */

/**
 * The supplier's receivable orders in the filial that have open lines of these products, oldest
 * first, with those lines: what an invoice of that supplier may be matched against.
 */
export async function openOrdersOfSupplier(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  target: LinkTarget,
  productIds: number[],
) {
  const lines = productIds.length
    ? await openItems(em, ctx.companyId, target.filialId, {
        supplierDocument: target.supplierDocument,
        productIds: [...new Set(productIds)],
      })
    : [];
  const orders = new Map(
    (
      await findOrders(
        em,
        ctx.companyId,
        lines.map((l) => l.purchaseOrderId),
      )
    ).map((o) => [o.id, o]),
  );
  const grouped = new Map<number, PurchaseOrderItem[]>();
  for (const l of lines) grouped.set(l.purchaseOrderId, [...(grouped.get(l.purchaseOrderId) ?? []), l]);
  return [...grouped.entries()].map(([id, items]) => {
    const o = orders.get(id)!;
    return {
      purchaseOrderId: encodeId('purchase-order', o.id),
      code: o.code,
      status: o.status,
      expectedDate: o.expectedDate,
      openLines: items.map((i) => ({
        purchaseOrderItemId: encodeId('purchase-order-item', i.id),
        lineNumber: i.lineNumber,
        productId: encodeId('product', i.productId),
        unit: i.unit,
        openQuantity: toJsonNumber(openQuantityOf(i), 'quantity'),
        unitPrice: toJsonNumber(netUnitPrice(i), 'price'),
        expectedDate: i.expectedDate ?? o.expectedDate,
      })),
    };
  });
}
