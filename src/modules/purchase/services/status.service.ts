import { EntityManager, In } from 'typeorm';
import { Changes } from '../../../core/audit/audit.service';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec } from '../../../core/decimal';
import { BusinessRuleError, ConflictError, FieldError } from '../../../core/errors';
import { Product, Supplier } from '../../catalog';
import type { PurchaseOrder, PurchaseOrderStatus } from '../entities/purchase-order.entity';
import type { PurchaseOrderItem } from '../entities/purchase-order-item.entity';
import { openQuantityOf } from '../purchase.lines';
import {
  findOrder,
  lockOrdersWithItems,
  OrderWithItems,
  ordersWithItems,
  updateOrderIf,
  writeLineQuantities,
} from '../purchase.repository';
import { assertTransition, forbidden, PurchaseOrderAction } from '../purchase.state';
import { auditOrder, lockForChange, publishOrderEvent } from './shared';

/*
 * Approve, cancel and close: one transaction each, the order and its lines locked, the status changed
 * with a conditional UPDATE (status and version as read), audit and event in the same transaction.
 */

/** The conditional UPDATE missed: name the status the order is in now. */
async function raiseConflict(em: EntityManager, ctx: TenantContext, order: PurchaseOrder, action: PurchaseOrderAction): Promise<never> {
  const now = await findOrder(em, ctx.companyId, order.id);
  if (now && now.status !== order.status) throw forbidden(now, action);
  throw new ConflictError('CONCURRENT_UPDATE', 'Purchase order was changed by someone else; reload and retry');
}

async function lockWithItems(em: EntityManager, ctx: TenantContext, id: number): Promise<OrderWithItems> {
  const order = await lockForChange(em, ctx, id);
  return (await lockOrdersWithItems(em, ctx.companyId, [order.id]))[0];
}

/** What still blocks approval: the supplier and every product must be active. */
async function approvalProblems(em: EntityManager, order: PurchaseOrder, items: PurchaseOrderItem[]): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  const supplier = await em.findOneBy(Supplier, { id: order.supplierId, companyId: order.companyId });
  if (!supplier?.active) problems.push({ path: 'supplierId', message: 'the supplier is inactive' });
  const products = new Map(
    (await em.findBy(Product, { companyId: order.companyId, id: In([...new Set(items.map((i) => i.productId))]) })).map((p) => [p.id, p]),
  );
  items.forEach((i) => {
    if (!products.get(i.productId)?.active)
      problems.push({ path: `items[${i.lineNumber - 1}].productId`, message: `line ${i.lineNumber}: the product is inactive` });
  });
  return problems;
}

/** POST /purchase/:id/approve (scope purchase:approve): DRAFT → APPROVED; receipts can link it from now on. */
export async function approveOrder(ctx: TenantContext, id: number): Promise<OrderWithItems> {
  await inTransaction(ctx, async (em) => {
    const { order, items } = await lockWithItems(em, ctx, id);
    assertTransition(order, 'approve', 'APPROVED');
    const problems = await approvalProblems(em, order, items);
    if (problems.length)
      throw new BusinessRuleError('PURCHASE_ORDER_NOT_APPROVABLE', 'The purchase order cannot be approved', { errors: problems });
    const approvedAt = new Date();
    if (
      !(await updateOrderIf(
        em,
        order,
        { status: 'DRAFT', version: order.version },
        { status: 'APPROVED', approvedAt, approvedBy: ctx.actor },
      ))
    )
      await raiseConflict(em, ctx, order, 'approve');
    Object.assign(order, { status: 'APPROVED', approvedAt, approvedBy: ctx.actor, version: order.version + 1 });
    await auditOrder(em, ctx, order, 'APPROVED', { status: ['DRAFT', 'APPROVED'], approvedBy: [null, ctx.actor] });
    await publishOrderEvent(em, ctx, order, 'approved', { approvedBy: ctx.actor });
  });
  return (await ordersWithItems(readerOf(ctx), ctx.companyId, [id]))[0];
}

/**
 * Cancel (DRAFT/APPROVED → CANCELLED) and close (PARTIALLY_RECEIVED → CLOSED) both end the order:
 * whatever is still open becomes cancelled quantity, so nothing stays open to receive.
 */
async function endOrder(ctx: TenantContext, id: number, action: 'cancel' | 'close', reason: string | null): Promise<OrderWithItems> {
  const to: PurchaseOrderStatus = action === 'cancel' ? 'CANCELLED' : 'CLOSED';
  await inTransaction(ctx, async (em) => {
    const { order, items } = await lockWithItems(em, ctx, id);
    assertTransition(order, action, to);
    const at = new Date();
    const set: Partial<PurchaseOrder> =
      action === 'cancel' ? { status: to, cancelledAt: at, cancelReason: reason } : { status: to, closedAt: at, closeReason: reason };
    if (!(await updateOrderIf(em, order, { status: order.status, version: order.version }, set)))
      await raiseConflict(em, ctx, order, action);
    const changes: Changes = {
      status: [order.status, to],
      ...(reason ? { [action === 'cancel' ? 'cancelReason' : 'closeReason']: [null, reason] } : {}),
    };
    let cancelled = new Dec(0);
    const updates = items
      .filter((i) => openQuantityOf(i).gt(0) || i.isOpen)
      .map((i) => {
        const open = openQuantityOf(i);
        const cancelledQuantity = i.cancelledQuantity.plus(open);
        cancelled = cancelled.plus(open);
        if (open.gt(0))
          changes[`items[${i.lineNumber}].cancelledQuantity`] = [i.cancelledQuantity.toFixed(4), cancelledQuantity.toFixed(4)];
        return { id: i.id, receivedQuantity: i.receivedQuantity, cancelledQuantity, isOpen: false };
      });
    await writeLineQuantities(em, ctx.companyId, updates);
    Object.assign(order, set, { version: order.version + 1 });
    await auditOrder(em, ctx, order, action === 'cancel' ? 'CANCELLED' : 'CLOSED', changes);
    await publishOrderEvent(em, ctx, order, action === 'cancel' ? 'cancelled' : 'closed', {
      reason,
      cancelledQuantity: Number(cancelled.toFixed(4)),
    });
  });
  return (await ordersWithItems(readerOf(ctx), ctx.companyId, [id]))[0];
}

export const cancelOrder = (ctx: TenantContext, id: number, reason: string | null) => endOrder(ctx, id, 'cancel', reason);
export const closeOrder = (ctx: TenantContext, id: number, reason: string | null) => endOrder(ctx, id, 'close', reason);
