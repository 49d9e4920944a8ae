import { expect } from 'chai';
import { In } from 'typeorm';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { allocateIds } from '../../src/core/sequence/ids';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { SalesOrderItem } from '../../src/modules/sales-order/entities/sales-order-item.entity';
import { createdDayOf, SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { Dec } from '../../src/core/decimal';
import { api } from '../support/api';
import type { TestTenant } from '../support/tenant';

/** Creates an order through the API and answers its body (asserting 201). */
export async function createOrder(t: TestTenant, body: Record<string, unknown>, filialIndex = 0) {
  const res = await api().post('/api/sales-order').set(t.headers(filialIndex)).send(body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

export async function fulfill(t: TestTenant, orderId: string, items: { salesOrderItemId: string; quantity: number | string }[]) {
  return api().post(`/api/sales-order/${orderId}/fulfill`).set(t.headers()).send({ items });
}

export const countOrders = (t: TestTenant) => dataSource.manager.countBy(SalesOrder, { companyId: t.companyId });
export const countItems = (t: TestTenant) => dataSource.manager.countBy(SalesOrderItem, { companyId: t.companyId });

/** Event types of the tenant, oldest first (optionally only those after a known id). */
export async function eventsOf(t: TestTenant, afterId = 0): Promise<OutboxEvent[]> {
  const rows = await dataSource.manager.find(OutboxEvent, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
  return rows.filter((e) => e.id > afterId);
}

export async function lastEventId(t: TestTenant): Promise<number> {
  const rows = await eventsOf(t);
  return rows.length ? rows[rows.length - 1].id : 0;
}

export const auditOf = (t: TestTenant, entityId: number) =>
  dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity: 'sales-order', entityId }, order: { id: 'ASC' } });

export const itemsInDb = (t: TestTenant, orderIds: number[]) =>
  dataSource.manager.find(SalesOrderItem, { where: { companyId: t.companyId, salesOrderId: In(orderIds) }, order: { id: 'ASC' } });

export const orderInDb = (t: TestTenant, id: number) => dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id });

let factoryCode = 1_000_000;

/** Moves an order's creation instant, its `created_day` with it (as the insert paths write them). */
export const setCreatedAt = (id: number, createdAt: Date) =>
  dataSource.manager.update(SalesOrder, { id }, { createdAt, createdDay: createdDayOf(createdAt) });

/**
 * Orders written straight to the table (search and list tests need hundreds, with chosen codes and
 * dates). Each gets one line of `productId`; amounts are plain.
 */
export async function insertOrders(t: TestTenant, productId: number, rows: Partial<SalesOrder>[]): Promise<SalesOrder[]> {
  const em = dataSource.manager;
  // Ids taken as the service takes them (core/sequence/ids.ts): an AUTO_INCREMENT insert could take one it handed out.
  const orderIds = await allocateIds(em, SalesOrder, rows.length);
  const itemIds = await allocateIds(em, SalesOrderItem, rows.length);
  const now = new Date();
  const orders = rows.map((r, i) =>
    em.create(SalesOrder, {
      id: orderIds[i],
      companyId: t.companyId,
      filialId: t.filialIds[0],
      code: factoryCode++,
      type: 'ORDER',
      flowMode: 'STANDARD',
      status: 'OPEN',
      customerId: null,
      sellerId: null,
      alias: null,
      searchAlias: null,
      notes: null,
      grossTotal: new Dec(10),
      itemsDiscount: new Dec(0),
      discount: new Dec(0),
      freight: new Dec(0),
      total: new Dec(10),
      validUntil: null,
      groupedIntoId: null,
      cancelReason: null,
      cancelledAt: null,
      ...r,
      // created_day goes with created_at, as every insert path writes it (null: as a previous version wrote it).
      createdAt: r.createdAt ?? now,
      createdDay: r.createdDay !== undefined ? r.createdDay : createdDayOf(r.createdAt ?? now),
    }),
  );
  const saved: SalesOrder[] = [];
  for (let i = 0; i < orders.length; i += 200) saved.push(...(await em.save(orders.slice(i, i + 200))));
  const items = saved.map((o, i) =>
    em.create(SalesOrderItem, {
      id: itemIds[i],
      companyId: t.companyId,
      salesOrderId: o.id,
      lineNumber: 1,
      productId,
      description: 'item',
      unit: 'UN',
      quantity: new Dec(1),
      unitPrice: new Dec(10),
      discount: new Dec(0),
      total: new Dec(10),
      orderDiscountShare: new Dec(0),
      fulfilledQuantity: new Dec(0),
      returnedQuantity: new Dec(0),
      cancelledQuantity: new Dec(0),
      origins: null,
    }),
  );
  for (let i = 0; i < items.length; i += 200) await em.insert(SalesOrderItem, items.slice(i, i + 200));
  return saved;
}
