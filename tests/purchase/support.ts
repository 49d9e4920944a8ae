import { expect } from 'chai';
import { In } from 'typeorm';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { PurchaseOrderItem } from '../../src/modules/purchase/entities/purchase-order-item.entity';
import { PurchaseOrderReceipt } from '../../src/modules/purchase/entities/purchase-order-receipt.entity';
import { PurchaseOrder } from '../../src/modules/purchase/entities/purchase-order.entity';
import type { PurchaseToleranceMode } from '../../src/modules/tenancy/entities/company.entity';
import { api } from '../support/api';
import type { TestTenant } from '../support/tenant';

/** Request helpers and database probes shared by the purchase-order tests. */

export const PURCHASE = '/api/purchase';

/** The company's purchase tolerances, through PATCH /settings/company (versioned, audited). */
export async function setTolerances(
  t: TestTenant,
  s: { quantityPct?: string; pricePct?: string; mode?: PurchaseToleranceMode },
): Promise<void> {
  const current = await api().get('/api/settings/company').set(t.headers());
  expect(current.status, JSON.stringify(current.body)).to.equal(200);
  const res = await api()
    .patch('/api/settings/company')
    .set(t.headers())
    .send({
      version: current.body.version,
      ...(s.quantityPct !== undefined ? { purchaseQuantityTolerancePct: s.quantityPct } : {}),
      ...(s.pricePct !== undefined ? { purchasePriceTolerancePct: s.pricePct } : {}),
      ...(s.mode !== undefined ? { purchaseToleranceMode: s.mode } : {}),
    });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

export interface LineSpec {
  productId: string;
  quantity: number | string;
  unitPrice: number | string;
  [k: string]: unknown;
}

export const orderBody = (
  supplier: { document: string; name?: string } | { id: string },
  items: LineSpec[],
  over: Record<string, unknown> = {},
) => ({
  ...('id' in supplier ? { supplierId: supplier.id } : { supplier: { name: 'Distribuidora Compras Ltda', ...supplier } }),
  items,
  ...over,
});

export async function createPurchaseOrder(t: TestTenant, body: Record<string, unknown>, filialIndex = 0) {
  const res = await api().post(PURCHASE).set(t.headers(filialIndex)).send(body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

export const approve = (t: TestTenant, id: string, filialIndex = 0) => api().post(`${PURCHASE}/${id}/approve`).set(t.headers(filialIndex));

/** An APPROVED order (created and approved through the API). */
export async function approvedOrder(t: TestTenant, body: Record<string, unknown>, filialIndex = 0) {
  const created = await createPurchaseOrder(t, body, filialIndex);
  const res = await approve(t, created.id, filialIndex);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

export const detail = async (t: TestTenant, id: string) => {
  const res = await api().get(`${PURCHASE}/detail/${id}`).set(t.headers());
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
};

export const poId = (hash: string) => decodeId('purchase-order', hash);
export const orderInDb = (t: TestTenant, hash: string) =>
  dataSource.manager.findOneByOrFail(PurchaseOrder, { companyId: t.companyId, id: poId(hash) });
export const linesInDb = (t: TestTenant, hash: string) =>
  dataSource.manager.find(PurchaseOrderItem, {
    where: { companyId: t.companyId, purchaseOrderId: poId(hash) },
    order: { lineNumber: 'ASC' },
  });
export const receiptsInDb = (t: TestTenant, hash: string) =>
  dataSource.manager.find(PurchaseOrderReceipt, { where: { companyId: t.companyId, purchaseOrderId: poId(hash) }, order: { id: 'ASC' } });

export const auditOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(AuditLog, {
    where: { companyId: t.companyId, entity: 'purchase-order', entityId: poId(hash) },
    order: { id: 'ASC' },
  });

export const eventsOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(OutboxEvent, {
    where: { companyId: t.companyId, aggregateType: 'purchase-order', aggregateId: poId(hash) },
    order: { id: 'ASC' },
  });

/** Row counts a refused request must leave unchanged. */
export async function purchaseFootprint(t: TestTenant) {
  const m = dataSource.manager;
  const where = { companyId: t.companyId };
  return {
    orders: await m.countBy(PurchaseOrder, where),
    lines: await m.countBy(PurchaseOrderItem, where),
    receipts: await m.countBy(PurchaseOrderReceipt, where),
    audit: await m.countBy(AuditLog, where),
    events: await m.countBy(OutboxEvent, where),
  };
}

export const linesByIds = (t: TestTenant, hashes: string[]) =>
  dataSource.manager.find(PurchaseOrderItem, {
    where: { companyId: t.companyId, id: In(hashes.map((h) => decodeId('purchase-order-item', h))) },
    order: { id: 'ASC' },
  });
