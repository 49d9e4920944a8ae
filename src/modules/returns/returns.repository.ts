import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { parseSqlTime } from '../../core/db/sql-time';
import { Fulfillment, FulfillmentItem, RETURNABLE_STATUSES, SalesOrder, SalesOrderItem } from '../sales-order';
import { SalesReturnItem } from './entities/sales-return-item.entity';
import { SalesReturn } from './entities/sales-return.entity';

export interface ReturnableLine {
  order: SalesOrder;
  item: SalesOrderItem;
  fulfilledAt: Date | null;
}

/**
 * Phase 1 of the returnable list: lines of the customer's delivered orders in the filial with units
 * still to give back, on the (company, filial, customer, code) order index. "Units left" is
 * `fulfilled_quantity <> returned_quantity`: an equality, not arithmetic — both columns are written
 * only as fixed-scale text/DECIMAL(18,4) (toFixed 4) and a return never exceeds what was delivered.
 */
export function returnableLinesQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  customerId: number,
): SelectQueryBuilder<SalesOrderItem> {
  return em
    .createQueryBuilder(SalesOrderItem, 'i')
    .innerJoin(SalesOrder, 'o', 'o.id = i.sales_order_id AND o.company_id = i.company_id')
    .where('o.company_id = :companyId AND o.filial_id = :filialId AND o.customer_id = :customerId', { companyId, filialId, customerId })
    .andWhere("o.type = 'ORDER' AND o.status IN (:...statuses)", { statuses: RETURNABLE_STATUSES })
    .andWhere('i.fulfilled_quantity <> i.returned_quantity');
}

/** Phase 2: the lines by id with their orders and each order's last delivery (3 queries). */
export async function loadReturnableLines(em: EntityManager, companyId: number, itemIds: number[]): Promise<ReturnableLine[]> {
  if (!itemIds.length) return [];
  const items = await em.find(SalesOrderItem, { where: { companyId, id: In(itemIds) } });
  const orderIds = [...new Set(items.map((i) => i.salesOrderId))];
  if (!orderIds.length) return [];
  const orders = await em.find(SalesOrder, { where: { companyId, id: In(orderIds) } });
  const lastDelivery: { sales_order_id: number; at: string | Date }[] = await em
    .createQueryBuilder(Fulfillment, 'f')
    .select('f.sales_order_id', 'sales_order_id')
    .addSelect('MAX(f.created_at)', 'at')
    .where('f.company_id = :companyId AND f.sales_order_id IN (:...orderIds)', { companyId, orderIds })
    .groupBy('f.sales_order_id')
    .getRawMany();
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const deliveredAt = new Map(lastDelivery.map((r) => [Number(r.sales_order_id), parseSqlTime(r.at)]));
  return items.map((item) => ({ order: orderById.get(item.salesOrderId)!, item, fulfilledAt: deliveredAt.get(item.salesOrderId) ?? null }));
}

/**
 * The order lines a return touches, locked like a fulfillment locks them (orders, then lines, each in
 * ascending id order) so returns and fulfillments of the same lines serialize without deadlocks.
 */
export async function lockReturnLines(
  em: EntityManager,
  companyId: number,
  itemIds: number[],
): Promise<{ orders: SalesOrder[]; items: SalesOrderItem[] }> {
  const ids = [...new Set(itemIds.filter((id) => id > 0))].sort((a, b) => a - b);
  if (!ids.length) return { orders: [], items: [] };
  const probe = await em.find(SalesOrderItem, { where: { companyId, id: In(ids) }, select: { id: true, salesOrderId: true } });
  const orderIds = [...new Set(probe.map((p) => p.salesOrderId))].sort((a, b) => a - b);
  if (!orderIds.length) return { orders: [], items: [] };
  const oq = em
    .createQueryBuilder(SalesOrder, 'o')
    .where('o.company_id = :companyId AND o.id IN (:...orderIds)', { companyId, orderIds })
    .orderBy('o.id', 'ASC');
  const iq = em
    .createQueryBuilder(SalesOrderItem, 'i')
    .where('i.company_id = :companyId AND i.id IN (:...ids)', { companyId, ids })
    .orderBy('i.id', 'ASC');
  if (isMysql) {
    oq.setLock('pessimistic_write');
    iq.setLock('pessimistic_write');
  }
  const orders = await oq.getMany();
  const items = await iq.getMany();
  return { orders, items };
}

export function fulfillmentItemsOf(em: EntityManager, companyId: number, itemIds: number[]): Promise<FulfillmentItem[]> {
  if (!itemIds.length) return Promise.resolve([]);
  return em.find(FulfillmentItem, { where: { companyId, salesOrderItemId: In(itemIds) } });
}

export async function loadReturns(
  em: EntityManager,
  companyId: number,
  ids: number[],
): Promise<{ ret: SalesReturn; items: SalesReturnItem[] }[]> {
  if (!ids.length) return [];
  const returns = await em.find(SalesReturn, { where: { companyId, id: In(ids) } });
  const items = await em.find(SalesReturnItem, { where: { companyId, returnId: In(ids) }, order: { id: 'ASC' } });
  return returns.map((ret) => ({ ret, items: items.filter((i) => i.returnId === ret.id) }));
}
