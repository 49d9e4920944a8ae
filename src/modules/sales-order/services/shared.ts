import { EntityManager } from 'typeorm';
import { Changes, recordAudit } from '../../../core/audit/audit.service';
import type { Filial } from '../../tenancy';
import { assertFilialAccess } from '../../tenancy';
import type { ActorContext, TenantContext } from '../../../core/context';
import { AppError, BusinessRuleError, FieldError } from '../../../core/errors';
import { encodeId, encodeOptionalId } from '../../../core/hashids';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { Customer, Product, Seller } from '../../catalog';
import type { SalesOrder } from '../entities/sales-order.entity';
import { lockOrder } from '../sales-order.repository';
import { selectRows } from '../../../core/db/sql';

export const AUDIT_ENTITY = 'sales-order';

/** Audit row of a sales order change. */
export const auditOrder = (em: EntityManager, ctx: ActorContext, order: SalesOrder, action: string, changes: Changes | null = null) =>
  recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: order.id, action, changes });

/** Outbox event of a sales order change; the payload carries hashids only. */
export const publishOrderEvent = (
  em: EntityManager,
  ctx: ActorContext,
  order: SalesOrder,
  type: string,
  data: Record<string, unknown> = {},
) =>
  publishEvent(em, ctx, {
    type: `sales-order.${type}`,
    filialId: order.filialId,
    aggregateType: 'sales-order',
    aggregateId: order.id,
    data: {
      salesOrderId: encodeId('sales-order', order.id),
      code: order.code,
      filialId: encodeId('filial', order.filialId),
      type: order.type,
      status: order.status,
      customerId: encodeOptionalId('customer', order.customerId),
      ...data,
    },
  });

/** Lock the order for a change and check the caller may act on its filial (403 when not granted). */
export async function lockForChange(em: EntityManager, ctx: TenantContext, id: number): Promise<{ order: SalesOrder; filial: Filial }> {
  const order = await lockOrder(em, ctx.companyId, id);
  const filial = await assertFilialAccess(ctx, order.filialId, em);
  return { order, filial };
}

const notFoundAt = (resource: string, code: string, errors: FieldError[]) =>
  new AppError('not_found', code, `${resource} not found`, { errors });

/** Products of the lines, in the tenant: unknown → 404 naming the lines; inactive → 422. */
export async function resolveProducts(
  em: EntityManager,
  companyId: number,
  productIds: number[],
  pathOf: (index: number) => string,
): Promise<Map<number, Product>> {
  const wanted = [...new Set(productIds.filter((id) => id > 0))];
  const products = wanted.length ? await selectRows(em, Product, companyId, { id: wanted }) : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  const missing = productIds
    .map((id, i) => (byId.has(id) ? null : { path: pathOf(i), message: 'product not found' }))
    .filter((e): e is FieldError => e !== null);
  if (missing.length) throw notFoundAt('Product', 'PRODUCT_NOT_FOUND', missing);
  const inactive = productIds
    .map((id, i) => (byId.get(id)!.active ? null : { path: pathOf(i), message: 'product is inactive' }))
    .filter((e): e is FieldError => e !== null);
  if (inactive.length) throw new BusinessRuleError('PRODUCT_INACTIVE', 'An item refers to an inactive product', { errors: inactive });
  return byId;
}

/** A customer of the tenant (404 otherwise; inactive → 422). */
export async function resolveCustomer(em: EntityManager, companyId: number, id: number, path = 'customerId'): Promise<Customer> {
  const customer = id > 0 ? ((await selectRows(em, Customer, companyId, { id }))[0] ?? null) : null;
  if (!customer) throw notFoundAt('Customer', 'CUSTOMER_NOT_FOUND', [{ path, message: 'customer not found' }]);
  if (!customer.active)
    throw new BusinessRuleError('CUSTOMER_INACTIVE', 'The customer is inactive', { errors: [{ path, message: 'customer is inactive' }] });
  return customer;
}

export async function resolveSeller(em: EntityManager, companyId: number, id: number, path = 'sellerId'): Promise<Seller> {
  const seller = id > 0 ? ((await selectRows(em, Seller, companyId, { id }))[0] ?? null) : null;
  if (!seller) throw notFoundAt('Seller', 'SELLER_NOT_FOUND', [{ path, message: 'seller not found' }]);
  if (!seller.active)
    throw new BusinessRuleError('SELLER_INACTIVE', 'The seller is inactive', { errors: [{ path, message: 'seller is inactive' }] });
  return seller;
}
