import { EntityManager, In } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import type { Statement } from '../../core/db/batching-query-runner';
import { deferWrite, readBatch } from '../../core/db/transaction';
import { hydrate, setClause } from '../../core/db/sql';
import type { SqlList } from '../../core/pagination';
import type { UnionBranch } from '../../core/pagination-union';
import { Dec, toFixed } from '../../core/decimal';
import { ConflictError, NotFoundError } from '../../core/errors';
import { Product } from '../catalog';
import { FulfillmentItem } from './entities/fulfillment-item.entity';
import { Fulfillment } from './entities/fulfillment.entity';
import { SalesOrderItem } from './entities/sales-order-item.entity';
import { SalesOrder, SalesOrderStatus, SalesOrderType } from './entities/sales-order.entity';

/** An order with what its DTO shows: items, customer/seller names, the orders grouped into it. */
export interface SalesOrderView {
  order: SalesOrder;
  items: SalesOrderItem[];
  customerName: string | null;
  sellerName: string | null;
  groupedFromIds: number[];
}

export const notFound = () => new NotFoundError('Sales order');

const FOR_UPDATE = isMysql ? ' FOR UPDATE' : '';
const marks = (values: unknown[]) => values.map(() => '?').join(',');

/** The statements every reader of an order and its lines shares (plain and batched). */
const orderForUpdate = (companyId: number, id: number): Statement => ({
  sql: `SELECT * FROM sales_order WHERE id = ? AND company_id = ?${FOR_UPDATE}`,
  params: [id, companyId],
});
const itemsForUpdate = (companyId: number, orderId: number): Statement => ({
  sql: `SELECT * FROM sales_order_item WHERE company_id = ? AND sales_order_id = ? ORDER BY id${FOR_UPDATE}`,
  params: [companyId, orderId],
});
const itemsOfOrders = (companyId: number, orderIds: number[]): Statement => ({
  sql: `SELECT * FROM sales_order_item WHERE company_id = ? AND sales_order_id IN (${marks(orderIds)}) ORDER BY sales_order_id, line_number`,
  params: [companyId, ...orderIds],
});

/** The order, locked for the rest of the transaction on MySQL (SQLite transactions are serialized). */
export async function lockOrder(em: EntityManager, companyId: number, id: number): Promise<SalesOrder> {
  const { sql, params } = orderForUpdate(companyId, id);
  const rows: Record<string, unknown>[] = id > 0 ? await em.query(sql, params) : [];
  const [order] = hydrate(em, SalesOrder, rows);
  if (!order) throw notFound();
  return order;
}

/**
 * What a fulfilment needs, in one round trip: the order and its lines, locked (order first, as every
 * writer of an order takes them), and which of the lines' products are stock-controlled.
 */
export async function lockOrderWithItems(
  em: EntityManager,
  companyId: number,
  id: number,
): Promise<{ order: SalesOrder; items: SalesOrderItem[]; stockControlled: Set<number> }> {
  if (!(id > 0)) throw notFound();
  const [orders, items, products] = (await readBatch(em, [
    orderForUpdate(companyId, id),
    itemsForUpdate(companyId, id),
    {
      sql: 'SELECT DISTINCT p.id, p.stock_controlled FROM product p JOIN sales_order_item i ON i.product_id = p.id AND i.company_id = p.company_id WHERE i.company_id = ? AND i.sales_order_id = ?',
      params: [companyId, id],
    },
  ])) as Record<string, unknown>[][];
  const [order] = hydrate(em, SalesOrder, orders);
  if (!order) throw notFound();
  const stockControlled = new Set(
    hydrate(em, Product, products)
      .filter((p) => p.stockControlled)
      .map((p) => p.id),
  );
  return { order, items: hydrate(em, SalesOrderItem, items), stockControlled };
}

/** Several orders locked in ascending id order (group); missing ones are simply absent. */
export async function lockOrders(em: EntityManager, companyId: number, ids: number[]): Promise<SalesOrder[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))].sort((a, b) => a - b);
  if (!wanted.length) return [];
  const qb = em
    .createQueryBuilder(SalesOrder, 'o')
    .where('o.company_id = :companyId AND o.id IN (:...wanted)', { companyId, wanted })
    .orderBy('o.id', 'ASC');
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** The order's lines, locked (ascending id) so fulfilled/returned/cancelled quantities change one writer at a time. */
export async function lockItems(em: EntityManager, companyId: number, orderId: number): Promise<SalesOrderItem[]> {
  const { sql, params } = itemsForUpdate(companyId, orderId);
  return hydrate(em, SalesOrderItem, await em.query(sql, params));
}

/** Which of these products are stock-controlled (the fulfil path: goods of the others move no stock). */
export async function stockControlledAmong(em: EntityManager, companyId: number, productIds: number[]): Promise<Set<number>> {
  if (!productIds.length) return new Set();
  const rows: Record<string, unknown>[] = await em.query(
    `SELECT id, stock_controlled FROM product WHERE company_id = ? AND id IN (${productIds.map(() => '?').join(',')})`,
    [companyId, ...productIds],
  );
  return new Set(
    hydrate(em, Product, rows)
      .filter((p) => p.stockControlled)
      .map((p) => p.id),
  );
}

export async function itemsOf(em: EntityManager, companyId: number, orderIds: number[]): Promise<SalesOrderItem[]> {
  if (!orderIds.length) return [];
  const { sql, params } = itemsOfOrders(companyId, orderIds);
  return hydrate(em, SalesOrderItem, await em.query(sql, params));
}

export interface OrderExpectation {
  status: SalesOrderStatus;
  version: number;
  type?: SalesOrderType;
}

/**
 * The conditional UPDATE every state change goes through: it only applies to the order as it was
 * read (status, version, type), bumps the version, and answers 409 when someone else got there first.
 * It travels with the transaction's next statement; its check still runs before the COMMIT. A caller
 * that read the order under its row lock in this transaction (`locked`) cannot miss, and skips the
 * check, so the COMMIT can travel with the update.
 */
export async function deferOrderUpdateIf(
  em: EntityManager,
  order: SalesOrder,
  expected: OrderExpectation,
  set: Partial<SalesOrder>,
  options: { locked?: boolean } = {},
): Promise<void> {
  const assignments = setClause(em, SalesOrder, { ...set, updatedAt: new Date() });
  await deferWrite(em, {
    label: 'sales order state change',
    sql: `UPDATE sales_order SET ${assignments.sql}, version = version + 1 WHERE id = ? AND company_id = ? AND status = ? AND version = ?${expected.type ? ' AND type = ?' : ''}`,
    params: [
      ...(assignments.params ?? []),
      order.id,
      order.companyId,
      expected.status,
      expected.version,
      ...(expected.type ? [expected.type] : []),
    ],
    check: options.locked
      ? undefined
      : (affected) => {
          if (!affected)
            throw new ConflictError('CONCURRENT_UPDATE', 'Sales order was changed by someone else; reload and retry', {
              currentVersion: expected.version + 1,
            });
        },
  });
}

/** New fulfilled/cancelled/returned quantities of many lines in one statement (the lines are locked: sent with the next one). */
export async function deferItemQuantities(
  em: EntityManager,
  companyId: number,
  column: 'fulfilled_quantity' | 'cancelled_quantity' | 'returned_quantity',
  updates: { id: number; value: Dec }[],
): Promise<void> {
  if (!updates.length) return;
  const cases = updates.map(() => 'WHEN ? THEN ?').join(' ');
  await deferWrite(em, {
    label: `sales order lines' ${column}`,
    sql: `UPDATE sales_order_item SET ${column} = CASE id ${cases} END WHERE company_id = ? AND id IN (${updates.map(() => '?').join(',')})`,
    params: [...updates.flatMap((u) => [u.id, toFixed(u.value, 4)]), companyId, ...updates.map((u) => u.id)],
  });
}

/**
 * Phase 2 of a list (and every single read): orders by id with their relations, in one round trip
 * (the names of their customers and sellers picked through the orders themselves).
 */
export async function loadViews(em: EntityManager, companyId: number, ids: number[]): Promise<SalesOrderView[]> {
  if (!ids.length) return [];
  const inIds = `IN (${marks(ids)})`;
  const namesOf = (table: 'customer' | 'seller', column: 'customer_id' | 'seller_id') => ({
    sql: `SELECT id, name FROM ${table} WHERE company_id = ? AND id IN (SELECT ${column} FROM sales_order WHERE company_id = ? AND id ${inIds})`,
    params: [companyId, companyId, ...ids],
  });
  const [orderRows, itemRows, customers, sellers, sources] = (await readBatch(em, [
    { sql: `SELECT * FROM sales_order WHERE company_id = ? AND id ${inIds}`, params: [companyId, ...ids] },
    itemsOfOrders(companyId, ids),
    namesOf('customer', 'customer_id'),
    namesOf('seller', 'seller_id'),
    {
      sql: `SELECT id, grouped_into_id FROM sales_order WHERE company_id = ? AND grouped_into_id ${inIds} ORDER BY id`,
      params: [companyId, ...ids],
    },
  ])) as [
    Record<string, unknown>[],
    Record<string, unknown>[],
    { id: number; name: string }[],
    { id: number; name: string }[],
    { id: number; grouped_into_id: number }[],
  ];
  const orders = hydrate(em, SalesOrder, orderRows);
  const items = hydrate(em, SalesOrderItem, itemRows);
  const customerName = new Map(customers.map((c) => [Number(c.id), c.name]));
  const sellerName = new Map(sellers.map((s) => [Number(s.id), s.name]));
  const itemsByOrder = new Map<number, SalesOrderItem[]>();
  for (const i of items) itemsByOrder.set(i.salesOrderId, [...(itemsByOrder.get(i.salesOrderId) ?? []), i]);
  return orders.map((order) => ({
    order,
    items: itemsByOrder.get(order.id) ?? [],
    customerName: order.customerId === null ? null : (customerName.get(order.customerId) ?? null),
    sellerName: order.sellerId === null ? null : (sellerName.get(order.sellerId) ?? null),
    groupedFromIds: sources.filter((s) => Number(s.grouped_into_id) === order.id).map((s) => Number(s.id)),
  }));
}

/** An order of a list page as its row: the columns its DTO shows, the names of its customer and seller joined in. */
export interface OrderListRow {
  id: number;
  code: number;
  filial_id: number;
  type: SalesOrderType;
  flow_mode: SalesOrder['flowMode'];
  status: SalesOrderStatus;
  customer_id: number | null;
  customer_name: string | null;
  seller_id: number | null;
  seller_name: string | null;
  alias: string | null;
  notes: string | null;
  payment_terms: string | null;
  boleto_bank_account_id: number | null;
  /** Decimals as the driver gives them (fixed-point strings); the mapper rounds them to their scales. */
  gross_total: unknown;
  items_discount: unknown;
  discount: unknown;
  freight: unknown;
  insurance: unknown;
  other_expenses: unknown;
  /** 0/1 on MySQL and SQLite (null: the customer's). */
  final_consumer: boolean | number | null;
  total: unknown;
  grouped_into_id: number | null;
  cancel_reason: string | null;
  version: number;
  /** Hydrated as the entity's columns are (engine-specific: Date objects or SQLite text). */
  valid_until: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A line of a list page as its row (decimals as the driver gives them, `origins` parsed). */
export interface ItemListRow {
  id: number;
  sales_order_id: number;
  line_number: number;
  product_id: number;
  description: string;
  unit: string;
  quantity: unknown;
  unit_price: unknown;
  discount: unknown;
  total: unknown;
  order_discount_share: unknown;
  fulfilled_quantity: unknown;
  returned_quantity: unknown;
  cancelled_quantity: unknown;
  origins: SalesOrderItem['origins'];
}

/** What the list's DTO of one order is made of. */
export interface ListedOrder {
  order: OrderListRow;
  items: ItemListRow[];
  groupedFromIds: number[];
}

const ORDER_LIST_COLUMNS = [
  'id',
  'code',
  'filial_id',
  'type',
  'flow_mode',
  'status',
  'customer_id',
  'seller_id',
  'alias',
  'notes',
  'payment_terms',
  'boleto_bank_account_id',
  'gross_total',
  'items_discount',
  'discount',
  'freight',
  'insurance',
  'other_expenses',
  'final_consumer',
  'total',
  'valid_until',
  'grouped_into_id',
  'cancel_reason',
  'cancelled_at',
  'version',
  'created_at',
  'updated_at',
];
const ITEM_LIST_COLUMNS = [
  'id',
  'sales_order_id',
  'line_number',
  'product_id',
  'description',
  'unit',
  'quantity',
  'unit_price',
  'discount',
  'total',
  'order_discount_share',
  'fulfilled_quantity',
  'returned_quantity',
  'cancelled_quantity',
  'origins',
];
const ORDER_LIST_SELECT = `SELECT ${ORDER_LIST_COLUMNS.map((c) => `o.${c}`).join(', ')}, c.name AS customer_name, s.name AS seller_name FROM sales_order o LEFT JOIN customer c ON c.id = o.customer_id AND c.company_id = o.company_id LEFT JOIN seller s ON s.id = o.seller_id AND s.company_id = o.company_id WHERE o.company_id = ? AND o.id IN `;
const ITEM_LIST_SELECT = `SELECT ${ITEM_LIST_COLUMNS.join(', ')} FROM sales_order_item WHERE company_id = ? AND sales_order_id IN `;

/**
 * Phase 2 of a list page: the rows its DTOs are mapped from, in one round trip of three statements,
 * without entity hydration (a page is 20–500 orders of a dozen decimals each, and hydrating each
 * value as a Dec only for the mapper to round it back cost a fifth of the list's CPU). Columns whose
 * driver value differs by engine (dates, JSON) go through the driver's own hydration, as `hydrate`'s.
 */
export async function loadListed(em: EntityManager, companyId: number, ids: number[]): Promise<ListedOrder[]> {
  if (!ids.length) return [];
  const inIds = `(${marks(ids)})`;
  const [orderRows, itemRows, sources] = (await readBatch(em, [
    { sql: ORDER_LIST_SELECT + inIds, params: [companyId, ...ids] },
    { sql: `${ITEM_LIST_SELECT}${inIds} ORDER BY sales_order_id, line_number`, params: [companyId, ...ids] },
    {
      sql: `SELECT id, grouped_into_id FROM sales_order WHERE company_id = ? AND grouped_into_id IN ${inIds} ORDER BY id`,
      params: [companyId, ...ids],
    },
  ])) as [OrderListRow[], ItemListRow[], { id: number; grouped_into_id: number }[]];
  const driver = em.connection.driver;
  const orderMeta = em.connection.getMetadata(SalesOrder);
  const itemMeta = em.connection.getMetadata(SalesOrderItem);
  const hydrated = (meta: typeof orderMeta, column: string) => {
    const c = meta.findColumnWithDatabaseName(column)!;
    return (value: unknown): unknown => driver.prepareHydratedValue(value, c);
  };
  const [validUntil, cancelledAt, createdAt, updatedAt] = ['valid_until', 'cancelled_at', 'created_at', 'updated_at'].map((c) =>
    hydrated(orderMeta, c),
  );
  const origins = hydrated(itemMeta, 'origins');
  const itemsByOrder = new Map<number, ItemListRow[]>();
  for (const i of itemRows) {
    i.sales_order_id = Number(i.sales_order_id);
    i.origins = origins(i.origins) as ItemListRow['origins'];
    const list = itemsByOrder.get(i.sales_order_id);
    if (list) list.push(i);
    else itemsByOrder.set(i.sales_order_id, [i]);
  }
  const groupedFrom = new Map<number, number[]>();
  for (const s of sources) {
    const into = Number(s.grouped_into_id);
    const list = groupedFrom.get(into);
    if (list) list.push(Number(s.id));
    else groupedFrom.set(into, [Number(s.id)]);
  }
  return orderRows.map((order) => {
    order.id = Number(order.id);
    order.valid_until = validUntil(order.valid_until) as string | null;
    order.cancelled_at = cancelledAt(order.cancelled_at) as Date | null;
    order.created_at = createdAt(order.created_at) as Date;
    order.updated_at = updatedAt(order.updated_at) as Date;
    return { order, items: itemsByOrder.get(order.id) ?? [], groupedFromIds: groupedFrom.get(order.id) ?? [] };
  });
}

export async function loadView(em: EntityManager, companyId: number, id: number): Promise<SalesOrderView> {
  const [view] = id > 0 ? await loadViews(em, companyId, [id]) : [];
  if (!view) throw notFound();
  return view;
}

export async function fulfillmentsOf(
  em: EntityManager,
  companyId: number,
  orderId: number,
): Promise<{ fulfillments: Fulfillment[]; items: FulfillmentItem[] }> {
  const fulfillments = await em.find(Fulfillment, { where: { companyId, salesOrderId: orderId }, order: { id: 'ASC' } });
  const items = fulfillments.length
    ? await em.find(FulfillmentItem, { where: { companyId, fulfillmentId: In(fulfillments.map((f) => f.id)) }, order: { id: 'ASC' } })
    : [];
  return { fulfillments, items };
}

// ---- list queries -------------------------------------------------------------------------------

export interface ListFilters {
  filialId: number;
  status?: SalesOrderStatus;
  type?: SalesOrderType;
  customerId?: number;
  sellerId?: number;
  /** Inclusive lower bound, 'YYYY-MM-DD HH:MM:SS.mmm' UTC. */
  createdFrom?: string;
  /** Exclusive upper bound, same form. */
  createdBefore?: string;
}

/** The filtered base of a list as plain SQL: tenant, filial and the plain filters, all on indexed columns. */
export function baseListSql(companyId: number, f: ListFilters): SqlList {
  let where = 'o.company_id = ? AND o.filial_id = ?';
  const params: unknown[] = [companyId, f.filialId];
  if (f.status) {
    where += ' AND o.status = ?';
    params.push(f.status);
  }
  if (f.type) {
    where += ' AND o.type = ?';
    params.push(f.type);
  }
  if (f.customerId !== undefined) {
    where += ' AND o.customer_id = ?';
    params.push(f.customerId);
  }
  if (f.sellerId !== undefined) {
    where += ' AND o.seller_id = ?';
    params.push(f.sellerId);
  }
  if (f.createdFrom) {
    where += ' AND o.created_at >= ?';
    params.push(f.createdFrom);
  }
  if (f.createdBefore) {
    where += ' AND o.created_at < ?';
    params.push(f.createdBefore);
  }
  return { from: 'sales_order o', where, params };
}

const datesAlone = (f: ListFilters) =>
  !!(f.createdFrom || f.createdBefore) && !f.status && !f.type && f.customerId === undefined && f.sellerId === undefined;

/**
 * A list filtered by creation dates alone and sorted by code reads the date range of the creation
 * index (which carries the codes) and sorts it, rather than walking the code index back from the
 * newest order until it reaches the range: bounded by the range, not by how old it is. MariaDB's
 * optimizer prefers the walk for a LIMIT (it cannot know where in the code order the range lies):
 * told on MySQL. This is also the list's count and cursor binding when `byCreationDays` reads its page.
 */
export function byCreationRange(list: SqlList, f: ListFilters, sortByCode: boolean): SqlList {
  return isMysql && sortByCode && datesAlone(f) ? { ...list, from: 'sales_order o FORCE INDEX (ix_sales_order_filial_created)' } : list;
}

/**
 * Ranges touching at most this many UTC days are read day by day (`byCreationDays`): any range of up to
 * two months of business days (62 Brasília days touch at most 63 UTC days). Each day costs one index
 * dive and one branch of the union whatever it holds, so a long range of a small filial (a year: 365
 * branches for a few thousand orders) is cheaper read whole and sorted; and a month is what the lists
 * are filtered by (docs/decisions/bounded-list-totals.md).
 */
export const MAX_CREATION_DAYS = 64;

const DAY_MS = 86_400_000;
const instant = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
const sqlInstant = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/**
 * On MySQL, the page of a list filtered by creation dates alone (both bounds) and sorted by code, as
 * one part per UTC day of the range for `paginateParts`: a whole day is `created_day = D` on
 * ix_sales_order_filial_created_day, already in code order, so each part reads only the page's depth
 * of it; a day the bounds cut (the first and last, as a Brasília day starts at 03:00 UTC) is its slice
 * of ix_sales_order_filial_created, sorted (at most a day's orders, from the index alone). The parts
 * are disjoint and together hold exactly the range: no assumption that codes follow creation time.
 * The whole days' rows without a created_day (an additive column: a previous version still writing
 * during a rolling restart) are one more part, by created_at.
 * Null (the list reads `byCreationRange`) elsewhere: SQLite, other filters, another sort, an open
 * bound, an empty range or more than MAX_CREATION_DAYS days.
 */
export function byCreationDays(companyId: number, f: ListFilters, sortByCode: boolean): SqlList[] | null {
  if (!isMysql || !sortByCode || !datesAlone(f) || !f.createdFrom || !f.createdBefore) return null;
  const from = instant(f.createdFrom);
  const before = instant(f.createdBefore);
  if (!(from < before)) return null;
  const first = Math.floor(from / DAY_MS) * DAY_MS;
  // The last day holding an instant of the range (created_at has millisecond precision).
  const last = Math.floor((before - 1) / DAY_MS) * DAY_MS;
  if ((last - first) / DAY_MS + 1 > MAX_CREATION_DAYS) return null;
  // The filial's orders (the dates are the only filter), each part with its own creation condition.
  const { where, params } = baseListSql(companyId, { filialId: f.filialId });
  const parts: SqlList[] = [];
  let whole: [number, number] | null = null;
  for (let day = first; day <= last; day += DAY_MS) {
    const lo = Math.max(from, day);
    const hi = Math.min(before, day + DAY_MS);
    if (lo === day && hi === day + DAY_MS) {
      parts.push({
        from: 'sales_order o FORCE INDEX (ix_sales_order_filial_created_day)',
        where: `${where} AND o.created_day = ?`,
        params: [...params, sqlInstant(day).slice(0, 10)],
      });
      whole = [whole?.[0] ?? day, day + DAY_MS];
    } else {
      parts.push({
        from: 'sales_order o FORCE INDEX (ix_sales_order_filial_created)',
        where: `${where} AND o.created_at >= ? AND o.created_at < ?`,
        params: [...params, sqlInstant(lo), sqlInstant(hi)],
      });
    }
  }
  // The whole days' orders without created_day (written by a previous version during a rolling
  // restart): by created_at. One index dive that finds nothing once every writer sets the column.
  if (whole) {
    parts.push({
      from: 'sales_order o FORCE INDEX (ix_sales_order_filial_created_day)',
      where: `${where} AND o.created_day IS NULL AND o.created_at >= ? AND o.created_at < ?`,
      params: [...params, sqlInstant(whole[0]), sqlInstant(whole[1])],
    });
  }
  return parts;
}

/** Numeric search: the code ranges of "equal or starts with", one OR'ed range list on the code index. */
export function whereCodeInSql(list: SqlList, ranges: [number, number][]): SqlList {
  if (!ranges.length) return { ...list, where: `${list.where} AND 1 = 0` };
  return {
    from: list.from,
    where: `${list.where} AND (${ranges.map(() => 'o.code BETWEEN ? AND ?').join(' OR ')})`,
    params: [...list.params, ...ranges.flat()],
  };
}

/**
 * The text search's branch "orders of these customers" (at most 250 of them). On MariaDB it reads the
 * customer index, every listed customer's range, and sorts that for the page: left to itself, the
 * optimizer's ORDER BY … LIMIT costing walks the code index backwards instead, fetching each order to
 * test its customer (at 1M orders, 250 customers of 10 orders: 7,000 rows and 21,000 pages for a page
 * of 20, against 2,500 index entries). The cost is then the listed customers' orders, which the
 * customer cap bounds as the count cap bounds the count.
 */
export function whereCustomerInSql(list: SqlList, customerIds: number[]): UnionBranch {
  return {
    from: isMysql ? `${list.from} FORCE INDEX (ix_sales_order_filial_customer)` : list.from,
    where: `${list.where} AND o.customer_id IN (${customerIds.map(() => '?').join(', ')})`,
    params: [...list.params, ...customerIds],
    ranges: customerIds.length,
  };
}

/** Subqueries for the order's filial and the products of some of its lines (stock locks their balances ahead, fulfil). */
export function orderFilialAndLineProducts(
  companyId: number,
  orderId: number,
  itemIds: number[],
): { filial: { sql: string; params: unknown[] }; products: { sql: string; params: unknown[] } } {
  return {
    filial: { sql: 'SELECT filial_id FROM sales_order WHERE company_id = ? AND id = ?', params: [companyId, orderId] },
    products: {
      sql: `SELECT product_id FROM sales_order_item WHERE company_id = ? AND sales_order_id = ? AND id IN (${itemIds.map(() => '?').join(', ')})`,
      params: [companyId, orderId, ...itemIds],
    },
  };
}
