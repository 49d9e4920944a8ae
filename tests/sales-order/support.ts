import { expect } from 'chai';
import { In } from 'typeorm';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { SalesOrderItem } from '../../src/modules/sales-order/entities/sales-order-item.entity';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
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
