import { EntityManager, In } from 'typeorm';
import { Changes, recordAudit } from '../../../core/audit/audit.service';
import { assertFilialAccess } from '../../tenancy';
import { normalizeDocument } from '../../../core/br-documents';
import type { ActorContext, TenantContext } from '../../../core/context';
import { AppError, BusinessRuleError, FieldError, NotFoundError, ValidationError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { findOrCreateSupplier, Product, Supplier } from '../../catalog';
import type { PurchaseOrder } from '../entities/purchase-order.entity';
import { lockOrder } from '../purchase.repository';
import type { SupplierInput } from '../purchase.types';

export const AUDIT_ENTITY = 'purchase-order';

/** Audit row of a purchase order change. */
export const auditOrder = (em: EntityManager, ctx: ActorContext, order: PurchaseOrder, action: string, changes: Changes | null = null) =>
  recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: order.id, action, changes });

/** Outbox event `purchase-order.<type>`; the payload carries hashids only. */
export const publishOrderEvent = (
  em: EntityManager,
  ctx: ActorContext,
  order: PurchaseOrder,
  type: string,
  data: Record<string, unknown> = {},
) =>
  publishEvent(em, ctx, {
    type: `purchase-order.${type}`,
    filialId: order.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: order.id,
    data: {
      purchaseOrderId: encodeId('purchase-order', order.id),
      code: order.code,
      filialId: encodeId('filial', order.filialId),
      supplierId: encodeId('supplier', order.supplierId),
      supplierDocument: order.supplierDocument,
      status: order.status,
      total: Number(order.total.toFixed(2)),
      ...data,
    },
  });

/** Lock the order for a change and check the caller may act on its filial (403 when not granted). */
export async function lockForChange(em: EntityManager, ctx: TenantContext, id: number): Promise<PurchaseOrder> {
  const order = await lockOrder(em, ctx.companyId, id);
  await assertFilialAccess(ctx, order.filialId, em);
  return order;
}

export interface SupplierSnapshot {
  supplierId: number;
  supplierDocument: string;
  supplierName: string;
}

/** The order's supplier: a catalog row by id (404), or by CNPJ/CPF (found, or created when new). */
export async function resolveSupplier(
  em: EntityManager,
  ctx: ActorContext,
  input: { supplierId?: number; supplier?: SupplierInput },
): Promise<SupplierSnapshot> {
  if (input.supplierId !== undefined) {
    const s = input.supplierId > 0 ? await em.findOneBy(Supplier, { id: input.supplierId, companyId: ctx.companyId }) : null;
    if (!s)
      throw new AppError('not_found', 'SUPPLIER_NOT_FOUND', 'Supplier not found', {
        errors: [{ path: 'supplierId', message: 'supplier not found' }],
      });
    if (!s.active)
      throw new BusinessRuleError('SUPPLIER_INACTIVE', 'The supplier is inactive', {
        errors: [{ path: 'supplierId', message: 'supplier is inactive' }],
      });
    return { supplierId: s.id, supplierDocument: s.document, supplierName: s.name };
  }
  const given = input.supplier;
  const document = given ? normalizeDocument(given.document) : null;
  if (!given || !document)
    throw new ValidationError('Invalid request', [{ path: 'supplier.document', message: 'supplier.document must be a valid CPF or CNPJ' }]);
  const s = (await findOrCreateSupplier(em, ctx, {
    document,
    name: given.name,
    stateRegistration: given.stateRegistration,
    uf: given.uf,
  }))!;
  if (!s.active)
    throw new BusinessRuleError('SUPPLIER_INACTIVE', 'The supplier is inactive', {
      errors: [{ path: 'supplier.document', message: 'supplier is inactive' }],
    });
  return { supplierId: s.id, supplierDocument: s.document, supplierName: s.name };
}

/** Products of the lines, in the tenant: unknown → 404 naming the lines; inactive → 422. */
export async function resolveProducts(em: EntityManager, companyId: number, productIds: number[]): Promise<Map<number, Product>> {
  const wanted = [...new Set(productIds.filter((id) => id > 0))];
  const products = wanted.length ? await em.findBy(Product, { companyId, id: In(wanted) }) : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  const missing: FieldError[] = productIds.flatMap((id, i) =>
    byId.has(id) ? [] : [{ path: `items[${i}].productId`, message: 'product not found' }],
  );
  if (missing.length) throw new AppError('not_found', 'PRODUCT_NOT_FOUND', 'Product not found', { errors: missing });
  const inactive: FieldError[] = productIds.flatMap((id, i) =>
    byId.get(id)!.active ? [] : [{ path: `items[${i}].productId`, message: 'product is inactive' }],
  );
  if (inactive.length) throw new BusinessRuleError('PRODUCT_INACTIVE', 'An item refers to an inactive product', { errors: inactive });
  return byId;
}

/** The filial a new order belongs to: the body's, else x-filial-id; granted by the token (403). */
export async function governingFilial(em: EntityManager, ctx: TenantContext, filialId?: number): Promise<number> {
  const id = filialId ?? ctx.filialId;
  if (!id)
    throw new ValidationError(
      'x-filial-id header (or filialId) is required',
      [{ path: 'x-filial-id', message: 'required' }],
      'MISSING_FILIAL',
    );
  await assertFilialAccess(ctx, id, em);
  return id;
}

export const notFoundOrder = () => new NotFoundError('Purchase order');
