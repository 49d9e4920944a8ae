import { EntityManager } from 'typeorm';
import { assertFilialAccess } from '../../tenancy';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec, sum } from '../../../core/decimal';
import { AppError, BusinessRuleError, ConflictError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import type { SalesOrderItem } from '../entities/sales-order-item.entity';
import { SalesOrder } from '../entities/sales-order.entity';
import { itemsOf, loadView, lockOrders, SalesOrderView, deferOrderUpdateIf } from '../sales-order.repository';
import type { OrderTotals } from '../sales-order.pricing';
import { anythingFulfilled, paymentTermsOf } from '../sales-order.rules';
import { assertAllowed } from '../sales-order.state';
import { createSalesOrder, reserveSalesOrderCode } from './create.service';
import { LineDraft, priceLines } from './lines';
import { auditOrder, publishOrderEvent } from './shared';

export interface GroupProblem {
  code: string;
  message: string;
  salesOrderId: number | null;
  currentStatus?: string;
}

export interface GroupPlan {
  sources: SalesOrder[];
  blockingProblems: GroupProblem[];
  warnings: { code: string; message: string }[];
  merged: {
    filialId: number;
    customerId: number | null;
    sellerId: number | null;
    discount: Dec;
    freight: Dec;
    insurance: Dec;
    otherExpenses: Dec;
    /** The sources' indFinal when they all agree; else null (the customer's). */
    finalConsumer: boolean | null;
    notes: string;
    /** The sources' payment terms when they all agree; else none (one installment on billing). */
    paymentTerms: string | null;
    boletoBankAccountId: number | null;
    lines: LineDraft[];
    priced: ReturnType<typeof priceLines>['rows'];
    totals: OrderTotals;
  };
}

const STATE_CODES = new Set(['INVALID_STATUS_TRANSITION', 'INVALID_TYPE_FOR_ACTION', 'SALES_ORDER_HAS_FULFILLMENTS']);

/**
 * The one computation behind group/preview and group (SPEC §6): sources must be OPEN ORDERs of one
 * filial and one customer with nothing fulfilled; lines of equal product and unit price merge (their
 * quantities and discounts add up), others are kept; every merged line records the source lines it
 * came from. Order discounts and freights add up and are allocated again over the merged lines.
 */
export function planGroup(companyId: number, sources: SalesOrder[], items: SalesOrderItem[]): GroupPlan {
  const blockingProblems: GroupProblem[] = [];
  const warnings: { code: string; message: string }[] = [];
  for (const o of sources) {
    try {
      assertAllowed(o, 'group', anythingFulfilled(items.filter((i) => i.salesOrderId === o.id)));
    } catch (err) {
      const e = err as AppError;
      blockingProblems.push({ code: e.code, message: `Order ${o.code}: ${e.message}`, salesOrderId: o.id, currentStatus: o.status });
    }
  }
  const [first] = sources;
  if (sources.some((o) => o.filialId !== first.filialId)) {
    blockingProblems.push({ code: 'GROUP_FILIAL_MISMATCH', message: 'Orders of different filiais cannot be grouped', salesOrderId: null });
  }
  if (sources.some((o) => o.customerId !== first.customerId)) {
    blockingProblems.push({
      code: 'GROUP_CUSTOMER_MISMATCH',
      message: 'Orders of different customers cannot be grouped',
      salesOrderId: null,
    });
  }
  const sellers = new Set(sources.map((o) => o.sellerId));
  if (sellers.size > 1) warnings.push({ code: 'SELLERS_DIFFER', message: 'The orders have different sellers; the grouped order has none' });
  const terms = new Set(sources.map((o) => o.paymentTerms));
  if (terms.size > 1)
    warnings.push({
      code: 'PAYMENT_TERMS_DIFFER',
      message: 'The orders have different payment terms; the grouped order has none (one installment on billing)',
    });
  const boletoAccounts = new Set(sources.map((o) => o.boletoBankAccountId));
  if (boletoAccounts.size > 1)
    warnings.push({
      code: 'BOLETO_ACCOUNTS_DIFFER',
      message: 'The orders name different boleto accounts; the grouped order issues no boleto on billing',
    });

  // Sources in code order, lines in line order: the merged order reads like the originals did.
  const ordered = [...sources].sort((a, b) => a.code - b.code);
  const merged = new Map<string, LineDraft>();
  for (const o of ordered) {
    for (const i of items.filter((it) => it.salesOrderId === o.id).sort((a, b) => a.lineNumber - b.lineNumber)) {
      const key = `${i.productId}|${i.unitPrice.toFixed(10)}`;
      const origin = { salesOrderId: o.id, salesOrderItemId: i.id, quantity: i.quantity.toFixed(4) };
      const line = merged.get(key);
      if (line) {
        line.quantity = line.quantity.plus(i.quantity);
        line.discount = line.discount.plus(i.discount);
        line.origins!.push(origin);
      } else {
        merged.set(key, {
          productId: i.productId,
          description: i.description,
          unit: i.unit,
          quantity: i.quantity,
          unitPrice: i.unitPrice,
          discount: i.discount,
          origins: [origin],
        });
      }
    }
  }
  const lines = [...merged.values()];
  const discount = sum(sources.map((o) => o.discount));
  const charges = {
    freight: sum(sources.map((o) => o.freight)),
    insurance: sum(sources.map((o) => o.insurance)),
    otherExpenses: sum(sources.map((o) => o.otherExpenses)),
  };
  const { rows, totals } = priceLines(companyId, 0, lines, discount, charges);
  return {
    sources: ordered,
    blockingProblems,
    warnings,
    merged: {
      filialId: first.filialId,
      customerId: first.customerId,
      sellerId: sellers.size === 1 ? first.sellerId : null,
      discount,
      ...charges,
      finalConsumer: new Set(sources.map((o) => o.finalConsumer)).size === 1 ? first.finalConsumer : null,
      notes: `Grouped from orders ${ordered.map((o) => o.code).join(', ')}`,
      paymentTerms: terms.size === 1 ? first.paymentTerms : null,
      boletoBankAccountId: boletoAccounts.size === 1 ? first.boletoBankAccountId : null,
      lines,
      priced: rows,
      totals,
    },
  };
}

/** Ids not found in the tenant → 404 naming each position. */
function assertAllFound(ids: number[], found: SalesOrder[]): void {
  const have = new Set(found.map((o) => o.id));
  const missing = ids
    .map((id, i) => (have.has(id) ? null : { path: `salesOrderIds[${i}]`, message: 'sales order not found' }))
    .filter((e) => e !== null);
  if (missing.length) throw new AppError('not_found', 'SALES_ORDER_NOT_FOUND', 'Sales order not found', { errors: missing });
}

async function loadSources(
  em: EntityManager,
  ctx: TenantContext,
  ids: number[],
  lock: boolean,
): Promise<{ sources: SalesOrder[]; items: SalesOrderItem[] }> {
  const sources = lock
    ? await lockOrders(em, ctx.companyId, ids)
    : ids.some((id) => id > 0)
      ? await em.createQueryBuilder(SalesOrder, 'o').where('o.company_id = :c AND o.id IN (:...ids)', { c: ctx.companyId, ids }).getMany()
      : [];
  assertAllFound(ids, sources);
  for (const filialId of new Set(sources.map((o) => o.filialId))) await assertFilialAccess(ctx, filialId, em);
  return {
    sources,
    items: await itemsOf(
      em,
      ctx.companyId,
      sources.map((o) => o.id),
    ),
  };
}

export async function groupPreview(ctx: TenantContext, ids: number[]): Promise<GroupPlan> {
  const { sources, items } = await loadSources(readerOf(ctx), ctx, ids, false);
  return planGroup(ctx.companyId, sources, items);
}

function blocked(plan: GroupPlan): AppError {
  const [first] = plan.blockingProblems;
  const problems = plan.blockingProblems.map((p) => ({
    ...p,
    salesOrderId: p.salesOrderId === null ? null : encodeId('sales-order', p.salesOrderId),
  }));
  return STATE_CODES.has(first.code)
    ? new ConflictError(first.code, first.message, { currentStatus: first.currentStatus, problems })
    : new BusinessRuleError(first.code, first.message, { problems });
}

/** Creates the merged order and marks the sources GROUPED, in one transaction. */
export async function groupOrders(ctx: TenantContext, ids: number[]): Promise<SalesOrderView> {
  const code = await reserveSalesOrderCode(readerOf(ctx), ctx.companyId);
  const mergedId = await inTransaction(ctx, async (em) => {
    const { sources, items } = await loadSources(em, ctx, ids, true);
    const plan = planGroup(ctx.companyId, sources, items);
    if (plan.blockingProblems.length) throw blocked(plan);
    const m = plan.merged;
    const { order: merged } = await createSalesOrder(
      em,
      ctx,
      {
        code,
        filialId: m.filialId,
        type: 'ORDER',
        customerId: m.customerId,
        sellerId: m.sellerId,
        notes: m.notes,
        paymentTerms: paymentTermsOf(m.paymentTerms),
        // The sources' account was checked when they named it (same filial, same customer).
        boletoBankAccountId: m.boletoBankAccountId,
        discount: m.discount,
        freight: m.freight,
        insurance: m.insurance,
        otherExpenses: m.otherExpenses,
        finalConsumer: m.finalConsumer,
        items: [],
      },
      m.lines,
    );
    for (const src of plan.sources) {
      await deferOrderUpdateIf(
        em,
        src,
        { status: 'OPEN', version: src.version, type: 'ORDER' },
        { status: 'GROUPED', groupedIntoId: merged.id },
      );
      await auditOrder(em, ctx, src, 'GROUPED', { status: ['OPEN', 'GROUPED'], groupedIntoId: [null, encodeId('sales-order', merged.id)] });
    }
    await publishOrderEvent(em, ctx, merged, 'grouped', { groupedFromIds: plan.sources.map((o) => encodeId('sales-order', o.id)) });
    return merged.id;
  });
  return loadView(readerOf(ctx), ctx.companyId, mergedId);
}
