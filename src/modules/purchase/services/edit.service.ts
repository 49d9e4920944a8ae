import { EntityManager } from 'typeorm';
import { Changes, diff } from '../../../core/audit/audit.service';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { AppError, BusinessRuleError, ConflictError, StaleVersionError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { PurchaseOrderItem } from '../entities/purchase-order-item.entity';
import type { PurchaseOrder } from '../entities/purchase-order.entity';
import { orderTotals } from '../purchase.lines';
import {
  deleteItems,
  deleteOrderIf,
  findItems,
  findOrder,
  insertItems,
  itemsOf,
  OrderWithItems,
  ordersWithItems,
  updateItem,
  updateOrderIf,
} from '../purchase.repository';
import { assertAllowed, forbidden } from '../purchase.state';
import type { PatchOrderInput } from '../purchase.types';
import { blankToNull, buildLines } from './create.service';
import { auditOrder, lockForChange, publishOrderEvent, resolveProducts, resolveSupplier } from './shared';

/** PATCH and DELETE of a DRAFT purchase order. */

const HEADER_FIELDS = [
  'supplierId',
  'supplierDocument',
  'supplierName',
  'expectedDate',
  'paymentInstallments',
  'paymentDays',
  'freightTerms',
  'notes',
  'totalProducts',
  'totalDiscount',
  'total',
] as const;

const lineView = (i: Partial<PurchaseOrderItem>) => ({
  productId: encodeId('product', i.productId!),
  description: i.description,
  supplierProductCode: i.supplierProductCode ?? null,
  quantity: i.quantity!.toFixed(4),
  unitPrice: i.unitPrice!.toFixed(10),
  discount: i.discount!.toFixed(2),
  expectedDate: i.expectedDate ?? null,
});

/** Line changes keyed by line number: `items[2].quantity: [old, new]`; added/removed lines as a whole. */
function lineChanges(before: PurchaseOrderItem[], after: Partial<PurchaseOrderItem>[]): Changes {
  const changes: Changes = {};
  const old = new Map(before.map((i) => [i.lineNumber, lineView(i)]));
  const next = new Map(after.map((i) => [i.lineNumber!, lineView(i)]));
  for (const line of [...new Set([...old.keys(), ...next.keys()])].sort((a, b) => a - b)) {
    const a = old.get(line);
    const b = next.get(line);
    if (!a || !b) changes[`items[${line}]`] = [a ?? null, b ?? null];
    else for (const [field, values] of Object.entries(diff(a, b))) changes[`items[${line}].${field}`] = values;
  }
  return changes;
}

/** Lines kept by id are updated in place (same id), new ones inserted, the rest removed. */
async function replaceLines(
  em: EntityManager,
  order: PurchaseOrder,
  current: PurchaseOrderItem[],
  rows: (Partial<PurchaseOrderItem> & { keepId?: number })[],
): Promise<void> {
  const kept = new Set(rows.map((r) => r.keepId).filter((id): id is number => id !== undefined));
  const removed = current.filter((i) => !kept.has(i.id)).map((i) => i.id);
  if (removed.length) await deleteItems(em, order.companyId, removed);
  for (const { keepId, ...row } of rows) if (keepId !== undefined) await updateItem(em, order.companyId, keepId, row);
  const added = rows
    .filter((r) => r.keepId === undefined)
    .map(({ keepId: _k, ...row }) => ({ ...row, companyId: order.companyId, purchaseOrderId: order.id }));
  if (added.length) await insertItems(em, added);
}

/** Kept lines must be this order's: unknown in the company (another company's too) → 404; another order's → 422. */
async function assertOwnLines(
  em: EntityManager,
  companyId: number,
  items: PurchaseOrderItem[],
  given: { purchaseOrderItemId?: number }[],
): Promise<void> {
  const own = new Set(items.map((i) => i.id));
  const foreign = given
    .map((it, i) => ({ id: it.purchaseOrderItemId, path: `items[${i}].purchaseOrderItemId` }))
    .filter((f): f is { id: number; path: string } => f.id !== undefined && !own.has(f.id));
  if (!foreign.length) return;
  const known = new Set(
    (
      await findItems(
        em,
        companyId,
        foreign.map((f) => f.id),
      )
    ).map((i) => i.id),
  );
  const missing = foreign.filter((f) => !known.has(f.id));
  if (missing.length)
    throw new AppError('not_found', 'PURCHASE_ORDER_ITEM_NOT_FOUND', 'Purchase-order line not found', {
      errors: missing.map((f) => ({ path: f.path, message: 'purchase-order line not found' })),
    });
  throw new BusinessRuleError('ITEM_NOT_IN_ORDER', 'A line does not belong to this purchase order', {
    errors: foreign.map((f) => ({ path: f.path, message: 'not a line of this purchase order' })),
  });
}

/** PATCH: only a DRAFT, at the version the client read; `items` replaces the lines as a whole. */
export async function patchOrder(ctx: TenantContext, id: number, input: PatchOrderInput): Promise<OrderWithItems> {
  await inTransaction(ctx, async (em) => {
    const order = await lockForChange(em, ctx, id);
    assertAllowed(order, 'edit');
    if (order.version !== input.version) throw new StaleVersionError('Purchase order', order.version);
    const items = await itemsOf(em, ctx.companyId, order.id);

    const set: Partial<PurchaseOrder> = {};
    if (input.supplierId !== undefined || input.supplier !== undefined) Object.assign(set, await resolveSupplier(em, ctx, input));
    if (input.expectedDate !== undefined) set.expectedDate = input.expectedDate;
    if (input.paymentTerms !== undefined) {
      set.paymentInstallments = input.paymentTerms?.installments ?? null;
      set.paymentDays = input.paymentTerms?.days ?? null;
    }
    if (input.freightTerms !== undefined) set.freightTerms = input.freightTerms;
    if (input.notes !== undefined) set.notes = blankToNull(input.notes);

    let changes: Changes = {};
    if (input.items) {
      await assertOwnLines(em, ctx.companyId, items, input.items);
      const rows = buildLines(
        input.items,
        await resolveProducts(
          em,
          ctx.companyId,
          input.items.map((i) => i.productId),
        ),
      ).map((row, i) => ({ ...row, keepId: input.items![i].purchaseOrderItemId }));
      changes = lineChanges(items, rows);
      if (Object.keys(changes).length) {
        await replaceLines(em, order, items, rows);
        Object.assign(set, orderTotals(rows as PurchaseOrderItem[]));
      }
    }
    changes = { ...diff(auditView(order), auditView({ ...order, ...set })), ...changes };
    if (!Object.keys(changes).length) return;
    if (!(await updateOrderIf(em, order, { status: 'DRAFT', version: order.version }, set)))
      throw new StaleVersionError('Purchase order', order.version + 1);
    Object.assign(order, set, { version: order.version + 1 });
    await auditOrder(em, ctx, order, 'UPDATED', changes);
    await publishOrderEvent(em, ctx, order, 'updated', { changed: Object.keys(changes) });
  });
  return (await ordersWithItems(readerOf(ctx), ctx.companyId, [id]))[0];
}

const auditView = (o: Partial<PurchaseOrder>) => ({
  ...Object.fromEntries(HEADER_FIELDS.map((f) => [f, o[f]])),
  supplierId: o.supplierId ? encodeId('supplier', o.supplierId) : null,
});

/** DELETE: only a DRAFT (an approved order is cancelled instead); the audit trail stays. */
export async function deleteOrder(ctx: TenantContext, id: number): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const order = await lockForChange(em, ctx, id);
    assertAllowed(order, 'delete');
    if (!(await deleteOrderIf(em, order))) {
      const now = await findOrder(em, ctx.companyId, id);
      if (now && now.status !== order.status) throw forbidden(now, 'delete');
      throw new ConflictError('CONCURRENT_UPDATE', 'Purchase order was changed by someone else; reload and retry');
    }
    await auditOrder(em, ctx, order, 'DELETED', {
      status: [order.status, null],
      code: [order.code, null],
      filialId: [encodeId('filial', order.filialId), null],
      supplierDocument: [order.supplierDocument, null],
      total: [order.total.toFixed(2), null],
    });
    await publishOrderEvent(em, ctx, order, 'deleted');
  });
}
