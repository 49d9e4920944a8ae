import { EntityManager, In } from 'typeorm';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import type { TenantContext } from '../../core/context';
import type { FiscalComputationRequest, FiscalItemInput } from '../fiscal';
import { Fulfillment, FulfillmentItem, SalesOrder, SalesOrderItem } from '../sales-order';

/*
 * What an NF-e bills: one fulfilment (the goods that left in it), or a whole order (the order a group
 * made, billed once for all its fulfilled goods). Prices come from the order lines; a line's discount
 * (its own and its share of the order discount) and the order's freight follow the billed quantities,
 * to the cent. The claim names what is billed: one live document per claim, and an order billed as a
 * whole cannot also be billed fulfilment by fulfilment (and the reverse).
 */

export interface BillingTarget {
  fulfillmentId?: number;
  salesOrderId?: number;
  /** indFinal of this document over the order's and the customer's. */
  finalConsumer?: boolean;
}

export interface BillingSource {
  source: 'FULFILLMENT' | 'ORDER';
  claim: string;
  /** Claims that exclude this one (the order's when billing a fulfilment, the fulfilments' when billing the order). */
  conflictingClaims: string[];
  /** The lock the issue takes first (claim-lock.ts): the sales order, whose order and fulfilment claims exclude each other. */
  scope: string;
  fulfillmentId: number | null;
  salesOrderId: number;
  filialId: number;
  customerId: number;
  request: Omit<FiscalComputationRequest, 'date'>;
}

const round2 = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** Spreads `total` over `weights` to the cent, the remainder on the largest weight. */
function apportion(total: Dec, weights: Dec[]): Dec[] {
  const sum = weights.reduce((s, w) => s.add(w), new Dec(0));
  if (sum.isZero() || total.isZero()) return weights.map(() => new Dec(0));
  const parts = weights.map((w) => round2(total.mul(w).div(sum)));
  const diff = total.sub(parts.reduce((s, p) => s.add(p), new Dec(0)));
  if (!diff.isZero()) {
    const i = weights.reduce((best, w, j) => (w.gt(weights[best]) ? j : best), 0);
    parts[i] = parts[i].add(diff);
  }
  return parts;
}

export async function loadBillingSource(ctx: TenantContext, target: BillingTarget, em: EntityManager): Promise<BillingSource> {
  if (target.fulfillmentId !== undefined) {
    const f = await em.findOneBy(Fulfillment, { id: target.fulfillmentId, companyId: ctx.companyId });
    if (!f) throw new NotFoundError('Fulfillment');
    const [order, fItems] = await Promise.all([
      em.findOneByOrFail(SalesOrder, { id: f.salesOrderId, companyId: ctx.companyId }),
      em.find(FulfillmentItem, { where: { companyId: ctx.companyId, fulfillmentId: f.id }, order: { id: 'ASC' } }),
    ]);
    const lines = await em.find(SalesOrderItem, { where: { companyId: ctx.companyId, id: In(fItems.map((i) => i.salesOrderItemId)) } });
    const byId = new Map(lines.map((l) => [l.id, l]));
    const billed = fItems.map((fi) => ({ line: byId.get(fi.salesOrderItemId)!, quantity: fi.quantity }));
    return build(ctx, order, billed, {
      source: 'FULFILLMENT',
      claim: `F${f.id}`,
      conflictingClaims: [`O${order.id}`],
      fulfillmentId: f.id,
    });
  }
  const order = await em.findOneBy(SalesOrder, { id: target.salesOrderId!, companyId: ctx.companyId });
  if (!order || order.type !== 'ORDER') throw new NotFoundError('Sales order', 'SALES_ORDER_NOT_FOUND');
  const [lines, fulfilments] = await Promise.all([
    em.find(SalesOrderItem, { where: { companyId: ctx.companyId, salesOrderId: order.id }, order: { lineNumber: 'ASC' } }),
    em.find(Fulfillment, { where: { companyId: ctx.companyId, salesOrderId: order.id }, select: { id: true } }),
  ]);
  const billed = lines.filter((l) => l.fulfilledQuantity.gt(0)).map((line) => ({ line, quantity: line.fulfilledQuantity }));
  if (!billed.length) throw new BusinessRuleError('NOTHING_TO_INVOICE', 'The order has no fulfilled quantity to invoice; fulfil it first');
  return build(ctx, order, billed, {
    source: 'ORDER',
    claim: `O${order.id}`,
    conflictingClaims: fulfilments.map((f) => `F${f.id}`),
    fulfillmentId: null,
  });
}

function build(
  _ctx: TenantContext,
  order: SalesOrder,
  billed: { line: SalesOrderItem; quantity: Dec }[],
  id: Pick<BillingSource, 'source' | 'claim' | 'conflictingClaims' | 'fulfillmentId'>,
): BillingSource {
  if (order.customerId === null)
    throw new BusinessRuleError('CUSTOMER_REQUIRED', 'An NF-e needs an identified customer: assign one to the order first');
  const items: FiscalItemInput[] = billed.map(({ line, quantity }) => {
    const share = line.quantity.isZero() ? new Dec(0) : quantity.div(line.quantity);
    return {
      productId: line.productId,
      salesOrderItemId: line.id,
      quantity,
      unitPrice: line.unitPrice,
      discount: round2(line.discount.add(line.orderDiscountShare).mul(share)),
    };
  });
  // The order's freight, insurance and other expenses follow the billed share of its goods (by value), to the cent.
  const orderGross = order.grossTotal;
  const billedGross = billed.reduce((s, b) => s.add(round2(b.quantity.mul(b.line.unitPrice))), new Dec(0));
  const share = (v: Dec) => (orderGross.isZero() ? new Dec(0) : apportion(v, [billedGross, Dec.max(orderGross.sub(billedGross), 0)])[0]);
  return {
    ...id,
    scope: `O${order.id}`,
    salesOrderId: order.id,
    filialId: order.filialId,
    customerId: order.customerId,
    request: {
      filialId: order.filialId,
      customerId: order.customerId,
      operation: 'SALE',
      model: 55,
      items,
      freight: share(order.freight),
      insurance: share(order.insurance),
      otherExpenses: share(order.otherExpenses),
      presence: 1,
      finalConsumer: order.finalConsumer ?? undefined,
    },
  };
}
