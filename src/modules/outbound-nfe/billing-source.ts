import { EntityManager, In } from 'typeorm';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import type { TenantContext } from '../../core/context';
import type { FiscalComputationRequest, FiscalItemInput } from '../fiscal';
import { Fulfillment, FulfillmentItem, installmentDaysOf, SalesOrder, SalesOrderItem } from '../sales-order';
import { fiscalDocumentInstallments } from '../receivables';
import { billingSnapshot, realignBoletosOfBilling } from '../collection';
import type { Installment } from './xml/nfe-xml';

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
  /** The lock the issue takes first (issue-source.ts): the sales order, whose order and fulfilment claims exclude each other. */
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

/*
 * cobr/dup and pag of a billing NF-e (a fulfilment, or an order as a whole) agree with its
 * receivables to the cent (SPEC §12.2): the receivables are made from the document's amount due
 * (vNFTot, else vNF: ST, FCP-ST, IPI, freight, insurance and other expenses included) split by the
 * installments given at issue, or else by the order's payment terms; the duplicatas are those
 * receivables. Only the issuing transaction writes them (`write`); a preview shows what it would make.
 */

const money = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** The installments given at issue, checked against the amount due (422 INSTALLMENTS_MISMATCH). */
export function givenInstallments(
  given: { dueDate: string; amount: Dec }[] | undefined,
  amountDue: Dec,
): { dueDate: string; amount: Dec }[] | null {
  if (!given?.length) return null;
  const list = given.map((d) => ({ dueDate: d.dueDate, amount: money(new Dec(d.amount)) }));
  const sum = list.reduce((s, d) => s.add(d.amount), new Dec(0));
  if (!sum.eq(money(amountDue))) {
    throw new BusinessRuleError(
      'INSTALLMENTS_MISMATCH',
      `The installments add up to ${sum.toFixed(2)}, the document's total is ${money(amountDue).toFixed(2)}`,
      {
        installmentsTotal: Number(sum.toFixed(2)),
        total: Number(money(amountDue).toFixed(2)),
      },
    );
  }
  return list;
}

export interface BillingPayment {
  installments: Installment[];
  /** tPag the receivables imply: 15 (boleto/duplicata) for the customer's receivables. */
  paymentType: string | null;
}

/** The duplicatas of a billing NF-e, its receivables made equal to them when `write`. */
export async function billingInstallments(
  ctx: TenantContext,
  source: { salesOrderId: number | null; fulfillmentId: number | null },
  given: { dueDate: string; amount: Dec }[] | undefined,
  amountDue: Dec,
  issueDate: string,
  em: EntityManager,
  write: boolean,
): Promise<BillingPayment> {
  const installments = givenInstallments(given, amountDue);
  if (source.salesOrderId === null) return { installments: [], paymentType: null };
  const order = await em.findOneByOrFail(SalesOrder, { id: source.salesOrderId, companyId: ctx.companyId });
  const fulfillmentIds =
    source.fulfillmentId !== null
      ? [source.fulfillmentId]
      : (
          await em.find(Fulfillment, {
            where: { companyId: ctx.companyId, salesOrderId: order.id },
            select: { id: true },
            order: { id: 'ASC' },
          })
        ).map((f) => f.id);
  // The boletos of the receivables follow what the document makes of them (collection-boleto.md "Boleto on billing").
  const before = write ? await billingSnapshot(em, ctx.companyId, fulfillmentIds) : null;
  const rows = await fiscalDocumentInstallments(
    em,
    ctx,
    {
      fulfillmentIds,
      order: { id: order.id, code: order.code, filialId: order.filialId, customerId: order.customerId },
      amount: money(amountDue),
      issueDate,
      installments,
      installmentDays: installmentDaysOf(order.paymentTerms),
    },
    write,
  );
  if (before) await realignBoletosOfBilling(em, ctx, { fulfillmentIds, bankAccountId: order.boletoBankAccountId, before });
  return {
    installments: rows.map((r) => ({ number: String(r.number).padStart(3, '0'), dueDate: r.dueDate, amount: money(r.amount) })),
    paymentType: rows.length ? '15' : null,
  };
}

/** The fulfilments whose receivables a billing document stands for: its own, or every fulfilment of the order it bills as a whole. */
export async function billedFulfillments(
  em: EntityManager,
  companyId: number,
  doc: { source: string; fulfillmentId: number | null; salesOrderId: number | null },
): Promise<number[]> {
  if (doc.fulfillmentId !== null) return [doc.fulfillmentId];
  if (doc.source !== 'ORDER' || doc.salesOrderId === null) return [];
  return (
    await em.find(Fulfillment, { where: { companyId, salesOrderId: doc.salesOrderId }, select: { id: true }, order: { id: 'ASC' } })
  ).map((f) => f.id);
}
