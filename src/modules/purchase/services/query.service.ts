import { readerOf } from '../../../core/db/transaction';
import { AuditEntryDto, auditTrail } from '../../../core/audit/audit-trail';
import { assertFilialAccess } from '../../tenancy';
import { AUDIT_ENTITY } from './shared';
import type { TenantContext } from '../../../core/context';
import { Page, PageRequest, paginate, SortKey } from '../../../core/pagination';
import type { PurchaseOrderItem } from '../entities/purchase-order-item.entity';
import type { PurchaseOrderReceipt } from '../entities/purchase-order-receipt.entity';
import type { PurchaseOrder } from '../entities/purchase-order.entity';
import {
  findItems,
  findOrder,
  findOrders,
  itemsOf,
  listQuery,
  loadOrdersByIds,
  notFound,
  openItemsQuery,
  OrderWithItems,
  receiptsByIds,
  receiptsQuery,
} from '../purchase.repository';
import type { OpenItemsQuery, OrderListQuery } from '../purchase.types';

/** Reads: one order, the filial's list, the open lines a receipt can match, an order's receipts. */

/** An order of the tenant in a filial the token grants (another company's → 404, a filial not granted → 403). */
async function accessibleOrder(ctx: TenantContext, id: number): Promise<PurchaseOrder> {
  const order = await findOrder(readerOf(ctx), ctx.companyId, id);
  if (!order) throw notFound();
  await assertFilialAccess(ctx, order.filialId);
  return order;
}

/** GET /purchase/audit/:id — the order's trail (a deleted DRAFT's order row is gone: 404, as its detail). */
export async function orderAuditTrail(ctx: TenantContext, id: number, page: PageRequest): Promise<Page<AuditEntryDto>> {
  const order = await accessibleOrder(ctx, id);
  return auditTrail(ctx.companyId, AUDIT_ENTITY, order.id, page);
}

export async function getOrder(ctx: TenantContext, id: number): Promise<OrderWithItems> {
  const order = await accessibleOrder(ctx, id);
  return { order, items: await itemsOf(readerOf(ctx), ctx.companyId, order.id) };
}

const SORTS: Record<NonNullable<OrderListQuery['sort']>, SortKey[]> = {
  '-code': [
    { column: 'o.code', direction: 'DESC' },
    { column: 'o.id', direction: 'DESC' },
  ],
  code: [
    { column: 'o.code', direction: 'ASC' },
    { column: 'o.id', direction: 'ASC' },
  ],
  expectedDate: [
    { column: 'o.expected_date', direction: 'ASC' },
    { column: 'o.id', direction: 'ASC' },
  ],
  '-expectedDate': [
    { column: 'o.expected_date', direction: 'DESC' },
    { column: 'o.id', direction: 'DESC' },
  ],
};

/** GET /purchase/list/:filialId — two-phase: ids of the page by index, then the orders and lines in two queries. */
export function listOrders(ctx: TenantContext, filialId: number, query: OrderListQuery): Promise<Page<OrderWithItems>> {
  const em = readerOf(ctx);
  return paginate(
    listQuery(em, ctx.companyId, filialId, query),
    SORTS[query.sort ?? '-code'],
    query,
    (ids) => loadOrdersByIds(em, ctx.companyId, ids),
    (v) => v.order.id,
  );
}

export interface OpenItem {
  item: PurchaseOrderItem;
  order: PurchaseOrder;
}

/** GET /purchase/open-items/:filialId — open lines of receivable orders, oldest order first. */
export async function listOpenItems(ctx: TenantContext, filialId: number, query: OpenItemsQuery): Promise<Page<OpenItem>> {
  const em = readerOf(ctx);
  return paginate(
    openItemsQuery(em, ctx.companyId, filialId, query),
    [
      { column: 'o.code', direction: 'ASC' },
      { column: 'i.id', direction: 'ASC' },
    ],
    query,
    async (ids) => {
      const items = await findItems(em, ctx.companyId, ids);
      const orders = new Map(
        (
          await findOrders(
            em,
            ctx.companyId,
            items.map((i) => i.purchaseOrderId),
          )
        ).map((o) => [o.id, o]),
      );
      return items.map((item) => ({ item, order: orders.get(item.purchaseOrderId)! }));
    },
    (r) => r.item.id,
  );
}

export interface ReceiptsView extends OrderWithItems {
  receipts: Page<PurchaseOrderReceipt>;
}

/** GET /purchase/:id/receipts — per line ordered/received/cancelled/open, and a page of its receipts (confirmed or cancelled), oldest first. */
export async function orderReceipts(ctx: TenantContext, id: number, query: PageRequest): Promise<ReceiptsView> {
  const em = readerOf(ctx);
  const { order, items } = await getOrder(ctx, id);
  const receipts = await paginate(
    receiptsQuery(em, ctx.companyId, order.id),
    [{ column: 'r.id', direction: 'ASC' }],
    query,
    (ids) => receiptsByIds(em, ctx.companyId, ids),
    (r) => r.id,
  );
  return { order, items, receipts };
}
