import { EntityManager } from 'typeorm';
import { acceptFilial, assertFilialAccess, filialRead } from '../../tenancy';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readBatch, readerOf } from '../../../core/db/transaction';
import { Dec, toJsonNumber } from '../../../core/decimal';
import { BusinessRuleError, FieldError, ValidationError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { LedgerLine, lockAheadForPosting, lockForPosting, postToLedger } from '../../stock';
import { FulfillmentItem } from '../entities/fulfillment-item.entity';
import { Fulfillment } from '../entities/fulfillment.entity';
import type { SalesOrderItem } from '../entities/sales-order-item.entity';
import type { SalesOrder } from '../entities/sales-order.entity';
import {
  fulfillmentsOf,
  itemsOf,
  lockOrderWithItems,
  orderFilialAndLineProducts,
  stockControlledAmong,
  deferOrderUpdateIf,
  deferItemQuantities,
} from '../sales-order.repository';
import { installmentDaysOf, netValueOf, remainingOf } from '../sales-order.rules';
import { billFulfillment } from '../../receivables';
import { type BoletoView, issueBoletosOnBilling } from '../../collection';
import { businessToday } from '../../../core/business-date';
import { assertAllowed, assertTransition } from '../sales-order.state';
import { assertReadable } from './query.service';
import { auditOrder, publishOrderEvent } from './shared';
import { deferInsertRows } from '../../../core/db/sql';
import { allocateId } from '../../../core/sequence/ids';

export interface FulfillLine {
  salesOrderItemId: number;
  quantity: Dec;
}

export interface FulfillResult {
  order: SalesOrder;
  items: SalesOrderItem[];
  fulfillment: Fulfillment;
  fulfillmentItems: FulfillmentItem[];
  /** Boleto on billing: the boletos the billing issued (the order's boletoBankAccountId), else none. */
  boletos: BoletoView[];
}

export interface FulfillOptions {
  /** Overrides the filial's setting (the quick sale has its own). */
  allowNegativeStock?: boolean;
  /**
   * ctx.filialId (x-filial-id) was left unchecked by the request pipeline (RouteDef.filialCheck): it
   * is read with the order's lock and refused (403) before anything else is looked at.
   */
  filialUnchecked?: boolean;
  /**
   * Bill the fulfilment: its value becomes the customer's receivables in the order's payment terms
   * (default). The quick sale passes false: it bills its payments instead (receivables billSale).
   */
  bill?: boolean;
}

/**
 * Fulfils lines of an order inside the caller's transaction (SPEC §6): the order and its lines are
 * locked, each quantity is checked against what remains *now*, the goods leave stock through the
 * ledger at average cost, the fulfillment records the cost each line left with, and the order moves
 * to PARTIALLY_FULFILLED or FULFILLED with a conditional update.
 */
export async function fulfillSalesOrderItems(
  em: EntityManager,
  ctx: TenantContext,
  orderId: number,
  lines: FulfillLine[],
  options: FulfillOptions = {},
): Promise<FulfillResult> {
  const headerFilial = options.filialUnchecked && ctx.filialId ? ctx.filialId : undefined;
  let locked: Awaited<ReturnType<typeof lockOrderWithItems>> | undefined;
  if (headerFilial && hasRepeatedLines(lines)) await assertFilialAccess(ctx, headerFilial, em);
  else {
    // One round trip: the filial (the pipeline's check, refused first), the order and its lines locked,
    // and the stock balances of the lines' products locked ahead (after the order, as lockBalances would).
    const filialRows = headerFilial ? readBatch(em, [filialRead(ctx, headerFilial)]) : undefined;
    const lockedRead = lockOrderWithItems(em, ctx.companyId, orderId);
    const balances = lockLineBalances(em, ctx.companyId, orderId, lines);
    await Promise.allSettled([filialRows, lockedRead, balances]);
    if (filialRows && headerFilial) acceptFilial(em, ctx, headerFilial, ((await filialRows) as Record<string, unknown>[][])[0]);
    locked = await lockedRead;
    await balances;
  }
  assertDistinctLines(lines);
  locked ??= await lockOrderWithItems(em, ctx.companyId, orderId);
  const { order, items } = locked;
  const productIds = [
    ...new Set(lines.map((l) => items.find((i) => i.id === l.salesOrderItemId)?.productId).filter((id): id is number => id !== undefined)),
  ];
  const controlled =
    locked.stockControlled ?? (productIds.length ? await stockControlledAmong(em, ctx.companyId, productIds) : new Set<number>());
  return deliverLines(em, ctx, { order, items, controlled }, lines, options);
}

/** An order and its lines as locked (or written) in the caller's transaction, and which of its products are stock-controlled. */
export interface DeliverableOrder {
  order: SalesOrder;
  items: SalesOrderItem[];
  controlled: ReadonlySet<number>;
  /**
   * The order was written already delivered in full in this transaction (deliver.service.ts), with
   * this fulfilment's row: every line must be fulfilled in full, and neither lines nor order are updated.
   */
  writtenDelivered?: Fulfillment;
}

/** Module-internal (fulfil and deliver.service.ts): the fulfilment of locked lines. */
export async function deliverLines(
  em: EntityManager,
  ctx: TenantContext,
  state: DeliverableOrder,
  lines: FulfillLine[],
  options: FulfillOptions = {},
): Promise<FulfillResult> {
  const { order, items, controlled } = state;
  // The governing filial was checked by the request pipeline; an order of another filial is checked here.
  const filial = ctx.filialId === order.filialId ? null : await assertFilialAccess(ctx, order.filialId, em);
  assertAllowed(order, 'fulfill');
  const byId = new Map(items.map((i) => [i.id, i]));
  assertWithinRemaining(lines, byId);

  // Goods of stock-controlled products leave through the ledger; services and the like leave at cost 0.
  const ledgerLines: LedgerLine[] = lines
    .map((l) => ({ item: byId.get(l.salesOrderItemId)!, quantity: l.quantity }))
    .filter(({ item }) => controlled.has(item.productId))
    .map(({ item, quantity }) => ({ productId: item.productId, direction: 'OUT', quantity, referenceLineId: item.id }));

  const now = new Date();
  const fulfillment = await openFulfillment(em, ctx, state, ledgerLines, now);
  const effects = await postToLedger(em, {
    companyId: ctx.companyId,
    filialId: order.filialId,
    reason: 'SALE',
    referenceType: 'fulfillment',
    referenceId: fulfillment.id,
    actor: ctx.actor,
    lines: ledgerLines,
    // Unset → the ledger reads the filial's own setting.
    allowNegative: options.allowNegativeStock ?? filial?.allowNegativeStock,
  });
  const costOf = new Map<number, Dec>();
  effects.forEach((e) => costOf.set(e.referenceLineId!, e.unitCost));
  const fulfillmentItems = await writeFulfillmentItems(em, ctx, { order, fulfillment, lines, byId, costOf });
  const { status, billed, changes } = await advanceOrder(em, ctx, state, lines, byId, now);
  const boletos = options.bill !== false ? await billDelivery(em, ctx, order, fulfillment, billed) : [];
  await auditOrder(em, ctx, order, status === 'FULFILLED' ? 'FULFILLED' : 'PARTIALLY_FULFILLED', changes);
  await publishOrderEvent(em, ctx, order, 'fulfilled', {
    fulfillmentId: encodeId('fulfillment', fulfillment.id),
    items: fulfillmentItems.map((fi) => ({
      salesOrderItemId: encodeId('sales-order-item', fi.salesOrderItemId),
      productId: encodeId('product', fi.productId),
      quantity: toJsonNumber(fi.quantity, 'quantity'),
      unitCost: toJsonNumber(fi.unitCost, 'cost'),
    })),
  });
  return { order, items, fulfillment, fulfillmentItems, boletos };
}

/** Every line an item of the order, none above what remains to be fulfilled now. */
function assertWithinRemaining(lines: FulfillLine[], byId: Map<number, SalesOrderItem>) {
  const problems: FieldError[] = [];
  const foreign: FieldError[] = [];
  lines.forEach((line, i) => {
    const item = byId.get(line.salesOrderItemId);
    if (!item) return foreign.push({ path: `items[${i}].salesOrderItemId`, message: 'not an item of this sales order' });
    const remaining = remainingOf(item);
    if (line.quantity.gt(remaining))
      problems.push({
        path: `items[${i}].quantity`,
        message: `quantity ${line.quantity.toFixed()} exceeds the remaining ${remaining.toFixed()}`,
      });
  });
  if (foreign.length) throw new BusinessRuleError('ITEM_NOT_IN_ORDER', 'An item does not belong to this sales order', { errors: foreign });
  if (problems.length)
    throw new BusinessRuleError('QUANTITY_ABOVE_REMAINING', 'A quantity exceeds what remains to be fulfilled', { errors: problems });
}

/** The fulfilment's row (the one written with the order, or a new one, deferred) and the lock of the balances it posts to. */
async function openFulfillment(
  em: EntityManager,
  ctx: TenantContext,
  { order, writtenDelivered }: DeliverableOrder,
  ledgerLines: LedgerLine[],
  now: Date,
): Promise<Fulfillment> {
  let fulfillment: Fulfillment;
  if (writtenDelivered) {
    fulfillment = writtenDelivered;
    await lockForPosting(
      em,
      ctx.companyId,
      order.filialId,
      ledgerLines.map((l) => l.productId),
    );
  } else {
    // Its id taken before the INSERT, the fulfilment's row travels (deferred) with the lock of the balances.
    fulfillment = Object.assign(new Fulfillment(), {
      id: await allocateId(em, Fulfillment),
      companyId: ctx.companyId,
      filialId: order.filialId,
      salesOrderId: order.id,
      actor: ctx.actor,
      createdAt: now,
    });
    await deferInsertRows(em, Fulfillment, [{ ...fulfillment }]);
    await lockForPosting(
      em,
      ctx.companyId,
      order.filialId,
      ledgerLines.map((l) => l.productId),
    );
  }
  return fulfillment;
}

/** The fulfilment's lines with the cost each left stock with (deferred rows). */
async function writeFulfillmentItems(
  em: EntityManager,
  ctx: TenantContext,
  d: { order: SalesOrder; fulfillment: Fulfillment; lines: FulfillLine[]; byId: Map<number, SalesOrderItem>; costOf: Map<number, Dec> },
): Promise<FulfillmentItem[]> {
  const fulfillmentItems = d.lines.map((l) => {
    const item = d.byId.get(l.salesOrderItemId)!;
    return Object.assign(new FulfillmentItem(), {
      companyId: ctx.companyId,
      fulfillmentId: d.fulfillment.id,
      salesOrderId: d.order.id,
      salesOrderItemId: item.id,
      productId: item.productId,
      quantity: l.quantity,
      unitCost: d.costOf.get(item.id) ?? new Dec(0),
    });
  });
  await deferInsertRows(em, FulfillmentItem, fulfillmentItems);
  return fulfillmentItems;
}

/** The lines' fulfilled quantities and the order's status moved on; what the fulfilment bills. */
async function advanceOrder(
  em: EntityManager,
  ctx: TenantContext,
  state: DeliverableOrder,
  lines: FulfillLine[],
  byId: Map<number, SalesOrderItem>,
  now: Date,
) {
  const { order, items, writtenDelivered } = state;
  const changes: Record<string, [unknown, unknown]> = {};
  // The fulfilment bills the net value of what it delivers (the difference of the lines' cumulative
  // values, so the deliveries of an order add up to it to the cent) and the freight, insurance and
  // other expenses with the first one.
  let billed = items.every((i) => i.fulfilledQuantity.isZero())
    ? order.freight.plus(order.insurance).plus(order.otherExpenses)
    : new Dec(0);
  const updates = lines.map((l) => {
    const item = byId.get(l.salesOrderItemId)!;
    const before = item.fulfilledQuantity;
    item.fulfilledQuantity = before.plus(l.quantity);
    billed = billed.plus(netValueOf(item, item.fulfilledQuantity)).minus(netValueOf(item, before));
    changes[`line${item.lineNumber}.fulfilledQuantity`] = [before.toFixed(4), item.fulfilledQuantity.toFixed(4)];
    return { id: item.id, value: item.fulfilledQuantity };
  });
  const status = items.every((i) => remainingOf(i).lte(0)) ? 'FULFILLED' : 'PARTIALLY_FULFILLED';
  assertTransition(order, 'fulfill', status);
  const before = { status: order.status, version: order.version };
  if (writtenDelivered) {
    // The insert wrote this very state: every line fulfilled in full, the order FULFILLED at version + 1.
    if (status !== 'FULFILLED' || items.some((i) => !i.fulfilledQuantity.eq(i.quantity)))
      throw new Error('An order written fulfilled must be fulfilled in full by its first fulfilment');
    Object.assign(order, { status, version: order.version + 1 });
  } else {
    await deferItemQuantities(em, ctx.companyId, 'fulfilled_quantity', updates);
    // The order was locked (or created) in this transaction and its state checked under the lock.
    await deferOrderUpdateIf(em, order, before, { status }, { locked: true });
    Object.assign(order, { status, version: order.version + 1, updatedAt: now });
  }
  if (before.status !== status) changes.status = [before.status, status];
  return { status, billed, changes };
}

/** The fulfilment's value becomes the customer's receivables in the order's terms, with boletos on billing. */
async function billDelivery(
  em: EntityManager,
  ctx: TenantContext,
  order: SalesOrder,
  fulfillment: Fulfillment,
  billed: Dec,
): Promise<BoletoView[]> {
  await billFulfillment(em, ctx, {
    filialId: order.filialId,
    salesOrderId: order.id,
    salesOrderCode: order.code,
    fulfillmentId: fulfillment.id,
    customerId: order.customerId,
    issueDate: businessToday(),
    amount: billed,
    installmentDays: installmentDaysOf(order.paymentTerms),
  });
  // Boleto on billing: each installment just billed gets its boleto in this transaction (issue 46).
  if (order.boletoBankAccountId !== null)
    return issueBoletosOnBilling(em, ctx, { bankAccountId: order.boletoBankAccountId, fulfillmentId: fulfillment.id });
  return [];
}

/**
 * The stock balances of the products of these lines of an order, in the order's filial, locked ahead
 * (stock's lockAheadForPosting): sent in the same round trip as lockOrderWithItems, after it.
 */
function lockLineBalances(em: EntityManager, companyId: number, orderId: number, lines: { salesOrderItemId: number }[]): Promise<void> {
  const itemIds = [...new Set(lines.map((l) => l.salesOrderItemId))];
  if (!(orderId > 0) || !itemIds.length) return Promise.resolve();
  const { filial, products } = orderFilialAndLineProducts(companyId, orderId, itemIds);
  return lockAheadForPosting(em, companyId, filial, products);
}

const hasRepeatedLines = (lines: FulfillLine[]): boolean => new Set(lines.map((l) => l.salesOrderItemId)).size !== lines.length;

/** The same line twice in one request is a malformed request (400), whoever calls. */
function assertDistinctLines(lines: FulfillLine[]): void {
  const seen = new Set<number>();
  const repeated = lines.map((l, i) => (seen.has(l.salesOrderItemId) ? i : (seen.add(l.salesOrderItemId), -1))).filter((i) => i >= 0);
  if (repeated.length) {
    throw new ValidationError(
      'The same item appears twice',
      repeated.map((i) => ({ path: `items[${i}].salesOrderItemId`, message: 'duplicate item' })),
    );
  }
}

/** POST /sales-order/:id/fulfill: one transaction. */
export const fulfillOrder = (ctx: TenantContext, orderId: number, lines: FulfillLine[], options: { filialUnchecked?: boolean } = {}) =>
  inTransaction(ctx, (em) => fulfillSalesOrderItems(em, ctx, orderId, lines, { filialUnchecked: options.filialUnchecked }));

/** GET /sales-order/:id/fulfillment. */
export async function fulfillmentView(ctx: TenantContext, orderId: number) {
  const em = readerOf(ctx);
  const order = await assertReadable(ctx, orderId);
  const items = await itemsOf(em, ctx.companyId, [order.id]);
  const { fulfillments, items: fulfillmentItems } = await fulfillmentsOf(em, ctx.companyId, order.id);
  return { order, items, fulfillments, fulfillmentItems };
}
