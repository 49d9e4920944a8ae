import { Dec } from '../../../core/decimal';
import type { Product } from '../../catalog';
import type { LineOrigin, SalesOrderItem } from '../entities/sales-order-item.entity';
import { OrderCharges, OrderTotals, priceOrder } from '../sales-order.pricing';
import type { TenantRow } from '../../../core/db/sql';

/** A line as a client sends it (create, quick sale, edit). */
export interface ItemInput {
  productId: number;
  quantity: Dec;
  unitPrice?: Dec;
  discount?: Dec;
  description?: string;
}

/** A line about to be written: what the client said, completed from the product (or the line it replaces). */
export interface LineDraft {
  productId: number;
  description: string;
  unit: string;
  quantity: Dec;
  unitPrice: Dec;
  discount: Dec;
  origins?: LineOrigin[] | null;
  /** Edit: the existing line this draft keeps (same id). */
  keepId?: number;
}

/** Completes inputs: price and description default to the product's (or, for a kept line of the same product, to the line's). */
export function draftLines(
  inputs: (ItemInput & { salesOrderItemId?: number })[],
  products: Map<number, Product>,
  kept: Map<number, SalesOrderItem> = new Map(),
): LineDraft[] {
  return inputs.map((input) => {
    const product = products.get(input.productId)!;
    const previous = input.salesOrderItemId ? kept.get(input.salesOrderItemId) : undefined;
    const samePrevious = previous && previous.productId === input.productId ? previous : undefined;
    return {
      productId: input.productId,
      description: input.description ?? samePrevious?.description ?? product.name,
      unit: product.unit,
      quantity: input.quantity,
      unitPrice: input.unitPrice ?? samePrevious?.unitPrice ?? product.price,
      discount: input.discount ?? new Dec(0),
      keepId: previous?.id,
    };
  });
}

/** Item rows with amounts (line totals, order discount shares) and the order totals, from one computation. */
export function priceLines(
  companyId: number,
  salesOrderId: number,
  drafts: LineDraft[],
  discount: Dec,
  charges: OrderCharges,
): { rows: (TenantRow<SalesOrderItem> & { keepId?: number })[]; totals: OrderTotals } {
  const { lines, totals } = priceOrder(drafts, discount, charges);
  const rows = drafts.map((d, i) => ({
    companyId,
    salesOrderId,
    lineNumber: i + 1,
    productId: d.productId,
    description: d.description,
    unit: d.unit,
    quantity: d.quantity,
    unitPrice: d.unitPrice,
    discount: lines[i].discount,
    total: lines[i].total,
    orderDiscountShare: lines[i].orderDiscountShare,
    fulfilledQuantity: new Dec(0),
    returnedQuantity: new Dec(0),
    cancelledQuantity: new Dec(0),
    origins: d.origins ?? null,
    keepId: d.keepId,
  }));
  return { rows, totals };
}

/** The order columns that come from the totals. */
export const totalsColumns = (t: OrderTotals) => ({
  grossTotal: t.gross,
  itemsDiscount: t.itemsDiscount,
  discount: t.discount,
  freight: t.freight,
  insurance: t.insurance,
  otherExpenses: t.otherExpenses,
  total: t.total,
});

/** The order's charges (freight, insurance, other expenses) as stored, each replaced where `given` says. */
export const chargesOf = (o: Partial<OrderCharges> | undefined, given: Partial<OrderCharges> = {}): OrderCharges => ({
  freight: given.freight ?? o?.freight ?? new Dec(0),
  insurance: given.insurance ?? o?.insurance ?? new Dec(0),
  otherExpenses: given.otherExpenses ?? o?.otherExpenses ?? new Dec(0),
});
