import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec, toJsonNumber } from '../../../core/decimal';
import { encodeId } from '../../../core/hashids';
import type { SalesOrderItem } from '../entities/sales-order-item.entity';
import type { SalesOrder, SalesOrderStatus } from '../entities/sales-order.entity';
import { itemsOf, loadView, lockItems, SalesOrderView, deferOrderUpdateIf, deferItemQuantities } from '../sales-order.repository';
import { remainingOf } from '../sales-order.rules';
import { assertTransition, canDo, forbidden, TRANSITIONS } from '../sales-order.state';
import { assertReadable } from './query.service';
import { auditOrder, lockForChange, publishOrderEvent } from './shared';

export interface CancellationPlan {
  canCancel: boolean;
  currentStatus: SalesOrderStatus;
  resultingStatus: SalesOrderStatus | null;
  blockingProblems: { code: string; message: string }[];
  itemsCancelled: { id: number; quantity: Dec }[];
}

/**
 * The one computation behind cancel-preview and cancel: an order with nothing fulfilled is
 * CANCELLED, a partially fulfilled one is CLOSED (its remainder cancelled), and a FULFILLED one is not
 * cancelled at all — its goods come back through returns.
 */
export function planCancellation(order: SalesOrder, items: SalesOrderItem[]): CancellationPlan {
  const itemsCancelled = items.map((i) => ({ id: i.id, quantity: remainingOf(i) })).filter((i) => i.quantity.gt(0));
  if (!canDo(order, 'cancel')) {
    const err = forbidden(order, 'cancel');
    return {
      canCancel: false,
      currentStatus: order.status,
      resultingStatus: null,
      blockingProblems: [{ code: err.code, message: err.message }],
      itemsCancelled: [],
    };
  }
  // The table says where a cancel leads: OPEN → CANCELLED, PARTIALLY_FULFILLED → CLOSED.
  const [resultingStatus] = TRANSITIONS.cancel.from[order.status]!;
  return { canCancel: true, currentStatus: order.status, resultingStatus, blockingProblems: [], itemsCancelled };
}

export async function cancelPreview(ctx: TenantContext, id: number): Promise<CancellationPlan> {
  const order = await assertReadable(ctx, id);
  return planCancellation(order, await itemsOf(readerOf(ctx), ctx.companyId, [order.id]));
}

export async function cancelOrder(ctx: TenantContext, id: number, reason: string): Promise<SalesOrderView> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    const items = await lockItems(em, ctx.companyId, order.id);
    const plan = planCancellation(order, items);
    if (!plan.canCancel || !plan.resultingStatus) throw forbidden(order, 'cancel');
    assertTransition(order, 'cancel', plan.resultingStatus);

    const byId = new Map(items.map((i) => [i.id, i]));
    const changes: Record<string, [unknown, unknown]> = { status: [order.status, plan.resultingStatus], cancelReason: [null, reason] };
    await deferItemQuantities(
      em,
      ctx.companyId,
      'cancelled_quantity',
      plan.itemsCancelled.map((c) => {
        const item = byId.get(c.id)!;
        const after = item.cancelledQuantity.plus(c.quantity);
        changes[`line${item.lineNumber}.cancelledQuantity`] = [item.cancelledQuantity.toFixed(4), after.toFixed(4)];
        return { id: c.id, value: after };
      }),
    );
    const before = { status: order.status, version: order.version };
    await deferOrderUpdateIf(em, order, before, { status: plan.resultingStatus, cancelReason: reason, cancelledAt: new Date() });
    order.status = plan.resultingStatus;
    await auditOrder(em, ctx, order, plan.resultingStatus, changes);
    await publishOrderEvent(em, ctx, order, plan.resultingStatus === 'CLOSED' ? 'closed' : 'cancelled', {
      reason,
      itemsCancelled: plan.itemsCancelled.map((c) => ({
        salesOrderItemId: encodeId('sales-order-item', c.id),
        quantity: toJsonNumber(c.quantity, 'quantity'),
      })),
    });
  });
  return loadView(readerOf(ctx), ctx.companyId, id);
}
