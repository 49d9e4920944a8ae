import { EntityManager } from 'typeorm';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec } from '../../../core/decimal';
import { BusinessRuleError, FieldError, ValidationError } from '../../../core/errors';
import { nextSequenceValue } from '../../../core/sequence/sequence.service';
import type { Product } from '../../catalog';
import type { PurchaseOrderItem } from '../entities/purchase-order-item.entity';
import { PurchaseOrder } from '../entities/purchase-order.entity';
import { orderTotals, priceLine } from '../purchase.lines';
import { insertItems, insertOrder, OrderWithItems, ordersWithItems } from '../purchase.repository';
import type { CreateOrderInput, OrderLineInput } from '../purchase.types';
import { auditOrder, governingFilial, publishOrderEvent, resolveProducts, resolveSupplier } from './shared';

export const PURCHASE_ORDER_CODE_SEQUENCE = 'purchase-order-code';

const MAX_AMOUNT = new Dec('9999999999999.99');

export const blankToNull = (s: string | null | undefined): string | null =>
  s === undefined || s === null || s.trim() === '' ? null : s.trim();

/**
 * The stored values of the lines, numbered 1..n in the order given: the product's name and unit
 * unless told otherwise, totals to the cent. A discount above the line's value is refused (422).
 */
export function buildLines(inputs: OrderLineInput[], products: Map<number, Product>): Partial<PurchaseOrderItem>[] {
  const tooBig: FieldError[] = [];
  const overDiscounted: FieldError[] = [];
  const rows = inputs.map((it, i) => {
    const product = products.get(it.productId)!;
    const priced = priceLine(it.quantity, it.unitPrice, it.discount ?? new Dec(0));
    if (priced.total.plus(priced.discount).gt(MAX_AMOUNT))
      tooBig.push({ path: `items[${i}].quantity`, message: `items[${i}] value exceeds the largest amount` });
    if (priced.total.lt(0)) overDiscounted.push({ path: `items[${i}].discount`, message: `items[${i}].discount exceeds the line's value` });
    return {
      lineNumber: i + 1,
      productId: it.productId,
      description: it.description ?? product.name,
      unit: product.unit,
      supplierProductCode: blankToNull(it.supplierProductCode),
      ...priced,
      expectedDate: it.expectedDate ?? null,
      receivedQuantity: new Dec(0),
      cancelledQuantity: new Dec(0),
      isOpen: true,
    };
  });
  if (tooBig.length) throw new ValidationError('Invalid request', tooBig);
  if (overDiscounted.length)
    throw new BusinessRuleError('DISCOUNT_ABOVE_LINE_VALUE', "A line's discount exceeds its value", { errors: overDiscounted });
  const totals = orderTotals(rows);
  if (totals.totalProducts.gt(MAX_AMOUNT))
    throw new ValidationError('Invalid request', [{ path: 'items', message: "the order's total exceeds the largest amount" }]);
  return rows;
}

/** Writes a new DRAFT order inside the caller's transaction: references checked in the tenant, audit, event. */
export async function createPurchaseOrder(
  em: EntityManager,
  ctx: TenantContext,
  input: CreateOrderInput,
  code: number,
): Promise<PurchaseOrder> {
  const filialId = await governingFilial(em, ctx, input.filialId);
  const products = await resolveProducts(
    em,
    ctx.companyId,
    input.items.map((i) => i.productId),
  );
  const lines = buildLines(input.items, products);
  const supplier = await resolveSupplier(em, ctx, input);
  const totals = orderTotals(lines as { quantity: Dec; unitPrice: Dec; discount: Dec; total: Dec }[]);
  const now = new Date();
  const values: Partial<PurchaseOrder> = {
    companyId: ctx.companyId,
    filialId,
    code,
    status: 'DRAFT',
    ...supplier,
    expectedDate: input.expectedDate ?? null,
    paymentInstallments: input.paymentTerms?.installments ?? null,
    paymentDays: input.paymentTerms?.days ?? null,
    freightTerms: input.freightTerms ?? null,
    notes: blankToNull(input.notes),
    ...totals,
    approvedAt: null,
    approvedBy: null,
    cancelledAt: null,
    cancelReason: null,
    closedAt: null,
    closeReason: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const id = await insertOrder(em, values);
  await insertItems(
    em,
    lines.map((l) => ({ ...l, companyId: ctx.companyId, purchaseOrderId: id })),
  );
  const order = Object.assign(new PurchaseOrder(), values, { id });
  await auditOrder(em, ctx, order, 'CREATED', { status: [null, 'DRAFT'], code: [null, code], total: [null, totals.total.toFixed(2)] });
  await publishOrderEvent(em, ctx, order, 'created', { items: lines.length });
  return order;
}

/** POST /purchase: a DRAFT in the body's filial (default x-filial-id). The code is taken before the transaction. */
export async function createFromRequest(ctx: TenantContext, body: CreateOrderInput): Promise<OrderWithItems> {
  const code = await nextSequenceValue(readerOf(ctx), ctx.companyId, PURCHASE_ORDER_CODE_SEQUENCE);
  const order = await inTransaction(ctx, (em) => createPurchaseOrder(em, ctx, body, code));
  return (await ordersWithItems(readerOf(ctx), ctx.companyId, [order.id]))[0];
}
