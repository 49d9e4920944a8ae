import { Brackets, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { normalizeText } from '../../core/br-documents';
import { isMysql } from '../../core/db/engine';
import { hydrate, insertChunked, TenantRow } from '../../core/db/sql';
import { Dec, toFixed } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { PurchaseOrderItem } from './entities/purchase-order-item.entity';
import { PurchaseOrderReceipt } from './entities/purchase-order-receipt.entity';
import { PurchaseOrder, PurchaseOrderStatus } from './entities/purchase-order.entity';

/** SQL of the purchase module. Every query is scoped by company. */

// SQLite allows 32,766 bound parameters per statement; bulk statements go in chunks well under that
// (an NF-e's 990 lines fit in one).
const CHUNK = 1000;

const chunks = <T>(list: T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_v, i) => list.slice(i * size, (i + 1) * size));

export const notFound = () => new NotFoundError('Purchase order');

export interface OrderWithItems {
  order: PurchaseOrder;
  items: PurchaseOrderItem[];
}

export function findOrder(em: EntityManager, companyId: number, id: number): Promise<PurchaseOrder | null> {
  return id > 0 ? em.findOneBy(PurchaseOrder, { id, companyId }) : Promise.resolve(null);
}

/** The order, locked for a change on MySQL (SQLite transactions are serialized); 404 when unknown. */
export async function lockOrder(em: EntityManager, companyId: number, id: number): Promise<PurchaseOrder> {
  if (!(id > 0)) throw notFound();
  const qb = em.createQueryBuilder(PurchaseOrder, 'o').where('o.id = :id AND o.company_id = :companyId', { id, companyId });
  if (isMysql) qb.setLock('pessimistic_write');
  const order = await qb.getOne();
  if (!order) throw notFound();
  return order;
}

/**
 * Orders and all their lines, locked in the order every writer takes them: the orders by ascending
 * id, then their lines by ascending id. Receipts of several invoices against one line queue here.
 */
export const lockOrdersWithItems = (em: EntityManager, companyId: number, orderIds: number[]) =>
  readOrdersWithItems(em, companyId, orderIds, isMysql);

/** Orders and their lines, unlocked (reads and previews). */
export const ordersWithItems = (em: EntityManager, companyId: number, orderIds: number[]) =>
  readOrdersWithItems(em, companyId, orderIds, false);

/** Plain SQL and hydration: receipts read an order's every line, up to an NF-e's 990 and more. */
async function readOrdersWithItems(em: EntityManager, companyId: number, orderIds: number[], lock: boolean): Promise<OrderWithItems[]> {
  const ids = [...new Set(orderIds)].sort((a, b) => a - b);
  if (!ids.length) return [];
  const marks = ids.map(() => '?').join(',');
  const forUpdate = lock ? ' FOR UPDATE' : '';
  const orders = hydrate(
    em,
    PurchaseOrder,
    await em.query(`SELECT * FROM purchase_order WHERE company_id = ? AND id IN (${marks}) ORDER BY id${forUpdate}`, [companyId, ...ids]),
  );
  const items = hydrate(
    em,
    PurchaseOrderItem,
    await em.query(`SELECT * FROM purchase_order_item WHERE company_id = ? AND purchase_order_id IN (${marks}) ORDER BY id${forUpdate}`, [
      companyId,
      ...ids,
    ]),
  );
  return group(orders, items);
}

function group(orders: PurchaseOrder[], items: PurchaseOrderItem[]): OrderWithItems[] {
  const byOrder = new Map(orders.map((o) => [o.id, [] as PurchaseOrderItem[]]));
  for (const it of items) byOrder.get(it.purchaseOrderId)?.push(it);
  return orders.map((order) => ({ order, items: byOrder.get(order.id)!.sort((a, b) => a.lineNumber - b.lineNumber) }));
}

export function findOrders(em: EntityManager, companyId: number, ids: number[]): Promise<PurchaseOrder[]> {
  const wanted = [...new Set(ids)];
  return wanted.length ? em.find(PurchaseOrder, { where: { companyId, id: In(wanted) } }) : Promise.resolve([]);
}

export function itemsOf(em: EntityManager, companyId: number, purchaseOrderId: number): Promise<PurchaseOrderItem[]> {
  return em.find(PurchaseOrderItem, { where: { companyId, purchaseOrderId }, order: { lineNumber: 'ASC' } });
}

/** The orders of these lines (one query, no hydration: the match's first step). */
export async function orderIdsOfItems(em: EntityManager, companyId: number, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  const out = new Set<number>();
  for (const part of chunks(wanted)) {
    const rows: { purchase_order_id: number | string }[] = await em.query(
      `SELECT DISTINCT purchase_order_id FROM purchase_order_item WHERE company_id = ? AND id IN (${part.map(() => '?').join(',')})`,
      [companyId, ...part],
    );
    for (const r of rows) out.add(Number(r.purchase_order_id));
  }
  return [...out];
}

/** Lines by id within the company (an unknown id is simply absent). */
export async function findItems(em: EntityManager, companyId: number, ids: number[]): Promise<PurchaseOrderItem[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  const out: PurchaseOrderItem[] = [];
  for (const part of chunks(wanted)) out.push(...(await em.find(PurchaseOrderItem, { where: { companyId, id: In(part) } })));
  return out;
}

export async function insertOrder(em: EntityManager, row: Partial<PurchaseOrder>): Promise<number> {
  const result = await em.insert(PurchaseOrder, row as never);
  return Number(result.identifiers[0].id);
}

export async function insertItems(em: EntityManager, rows: TenantRow<PurchaseOrderItem>[]): Promise<void> {
  await insertChunked(em, PurchaseOrderItem, rows);
}

export async function updateItem(em: EntityManager, companyId: number, id: number, set: Partial<PurchaseOrderItem>): Promise<void> {
  await em
    .createQueryBuilder()
    .update(PurchaseOrderItem)
    .set(set as never)
    .where('id = :id AND company_id = :companyId', { id, companyId })
    .execute();
}

export async function deleteItems(em: EntityManager, companyId: number, ids: number[]): Promise<void> {
  for (const part of chunks(ids))
    await em
      .createQueryBuilder()
      .delete()
      .from(PurchaseOrderItem)
      .where('company_id = :companyId AND id IN (:...part)', { companyId, part })
      .execute();
}

/**
 * The conditional UPDATE every change of an order goes through: it applies only to the order as it
 * was read (status, version) and bumps the version. False when someone else got there first.
 */
export async function updateOrderIf(
  em: EntityManager,
  order: PurchaseOrder,
  expected: { status: PurchaseOrderStatus; version: number },
  set: Partial<PurchaseOrder>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PurchaseOrder)
    .set({ ...set, updatedAt: new Date(), version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', {
      id: order.id,
      companyId: order.companyId,
      ...expected,
    })
    .execute();
  return (result.affected ?? 0) > 0;
}

/**
 * New statuses of several locked orders in one statement, each conditional on the status and
 * version it was read with (version + 1). Answers how many rows changed: fewer than given means one
 * moved under the caller's feet.
 */
export async function moveOrdersIf(
  em: EntityManager,
  companyId: number,
  moves: { order: PurchaseOrder; status: PurchaseOrderStatus }[],
): Promise<number> {
  let affected = 0;
  for (const part of chunks(moves, 200)) {
    const result = await em
      .createQueryBuilder()
      .update(PurchaseOrder)
      .set({
        status: () => `CASE id ${part.map((_m, i) => `WHEN :id${i} THEN :to${i}`).join(' ')} END`,
        updatedAt: new Date(),
        version: () => 'version + 1',
      } as never)
      .where(
        `company_id = :companyId AND (${part.map((_m, i) => `(id = :id${i} AND status = :from${i} AND version = :v${i})`).join(' OR ')})`,
        {
          companyId,
          ...Object.fromEntries<unknown>(
            part.flatMap((m, i) => [
              [`id${i}`, m.order.id],
              [`to${i}`, m.status],
              [`from${i}`, m.order.status],
              [`v${i}`, m.order.version],
            ]),
          ),
        },
      )
      .execute();
    affected += result.affected ?? 0;
  }
  return affected;
}

export async function deleteOrderIf(em: EntityManager, order: PurchaseOrder): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .delete()
    .from(PurchaseOrder)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', {
      id: order.id,
      companyId: order.companyId,
      status: order.status,
      version: order.version,
    })
    .execute();
  if (!result.affected) return false;
  await em
    .createQueryBuilder()
    .delete()
    .from(PurchaseOrderItem)
    .where('company_id = :companyId AND purchase_order_id = :id', { companyId: order.companyId, id: order.id })
    .execute();
  return true;
}

/**
 * New received/cancelled quantities and open flags of many (locked) lines, one statement per chunk.
 * The values are computed by the caller with Dec; SQL only stores them.
 */
export async function writeLineQuantities(
  em: EntityManager,
  companyId: number,
  updates: { id: number; receivedQuantity: Dec; cancelledQuantity: Dec; isOpen: boolean }[],
): Promise<void> {
  for (const part of chunks(updates)) {
    const cases = part.map(() => 'WHEN ? THEN ?').join(' ');
    await em.query(
      `UPDATE purchase_order_item SET received_quantity = CASE id ${cases} END, cancelled_quantity = CASE id ${cases} END, is_open = CASE id ${cases} END ` +
        `WHERE company_id = ? AND id IN (${part.map(() => '?').join(',')})`,
      [
        ...part.flatMap((u) => [u.id, toFixed(u.receivedQuantity, 'quantity')]),
        ...part.flatMap((u) => [u.id, toFixed(u.cancelledQuantity, 'quantity')]),
        ...part.flatMap((u) => [u.id, u.isOpen ? 1 : 0]),
        companyId,
        ...part.map((u) => u.id),
      ],
    );
  }
}

/* ---- receipts ---- */

export async function insertReceipts(em: EntityManager, rows: TenantRow<PurchaseOrderReceipt>[]): Promise<void> {
  await insertChunked(em, PurchaseOrderReceipt, rows);
}

/** The CONFIRMED receipts an entry document made (what cancelling it reverts). */
export function confirmedReceiptsOf(em: EntityManager, companyId: number, entryDocumentId: number): Promise<PurchaseOrderReceipt[]> {
  return em.find(PurchaseOrderReceipt, { where: { companyId, entryDocumentId, status: 'CONFIRMED' }, order: { id: 'ASC' } });
}

export async function markReceiptsCancelled(
  em: EntityManager,
  companyId: number,
  entryDocumentId: number,
  cancelledAt: Date,
): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(PurchaseOrderReceipt)
    .set({ status: 'CANCELLED', cancelledAt })
    .where('company_id = :companyId AND entry_document_id = :entryDocumentId AND status = :status', {
      companyId,
      entryDocumentId,
      status: 'CONFIRMED',
    })
    .execute();
  return result.affected ?? 0;
}

/** An order's receipts (index ix_purchase_order_receipt_order), for a two-phase list. */
export const receiptsQuery = (em: EntityManager, companyId: number, purchaseOrderId: number): SelectQueryBuilder<PurchaseOrderReceipt> =>
  em
    .createQueryBuilder(PurchaseOrderReceipt, 'r')
    .where('r.company_id = :companyId AND r.purchase_order_id = :purchaseOrderId', { companyId, purchaseOrderId });

export function receiptsByIds(em: EntityManager, companyId: number, ids: number[]): Promise<PurchaseOrderReceipt[]> {
  return ids.length ? em.find(PurchaseOrderReceipt, { where: { companyId, id: In(ids) }, order: { id: 'ASC' } }) : Promise.resolve([]);
}

/* ---- lists ---- */

export interface ListFilters {
  status?: PurchaseOrderStatus;
  supplierId?: number;
  supplierDocument?: string;
  productId?: number;
  expectedFrom?: string;
  expectedTo?: string;
  search?: string;
}

/** Phase 1 of the list: the filial's orders matching the filters (ids and sort keys only). */
export function listQuery(em: EntityManager, companyId: number, filialId: number, f: ListFilters): SelectQueryBuilder<PurchaseOrder> {
  const qb = em
    .createQueryBuilder(PurchaseOrder, 'o')
    .where('o.company_id = :companyId AND o.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('o.status = :status', { status: f.status });
  if (f.supplierId) qb.andWhere('o.supplier_id = :supplierId', { supplierId: f.supplierId });
  if (f.supplierDocument) qb.andWhere('o.supplier_document = :supplierDocument', { supplierDocument: f.supplierDocument });
  if (f.expectedFrom) qb.andWhere('o.expected_date >= :expectedFrom', { expectedFrom: f.expectedFrom });
  if (f.expectedTo) qb.andWhere('o.expected_date <= :expectedTo', { expectedTo: f.expectedTo });
  if (f.productId) {
    qb.andWhere(
      'EXISTS (SELECT 1 FROM purchase_order_item pi WHERE pi.company_id = o.company_id AND pi.purchase_order_id = o.id AND pi.product_id = :productId)',
      { productId: f.productId },
    );
  }
  const term = f.search?.trim();
  if (term) {
    if (/^\d+$/.test(term)) {
      // A number is an order code (what suppliers quote) or, from 4 digits on, the start of a supplier's document.
      qb.andWhere(
        new Brackets((w) => {
          w.where('o.code = :code', { code: term.length <= 9 ? Number(term) : -1 });
          if (term.length >= 4) w.orWhere('o.supplier_document LIKE :doc', { doc: `${term}%` });
        }),
      );
    } else {
      qb.andWhere('o.supplier_id IN (SELECT s.id FROM supplier s WHERE s.company_id = :companyId AND s.search_name LIKE :name)', {
        name: `%${normalizeText(term)}%`,
      });
    }
  }
  return qb;
}

/** Phase 2: the page's orders with their lines, two queries. */
export async function loadOrdersByIds(em: EntityManager, companyId: number, ids: number[]): Promise<OrderWithItems[]> {
  return ordersWithItems(em, companyId, ids);
}

export interface OpenItemFilters {
  supplierDocument?: string;
  productId?: number;
  productIds?: number[];
}

export const RECEIVABLE_STATUSES: PurchaseOrderStatus[] = ['APPROVED', 'PARTIALLY_RECEIVED'];

/**
 * Open lines of the filial's receivable orders (APPROVED, PARTIALLY_RECEIVED), oldest order first:
 * the lines a receipt can be matched against.
 */
export function openItemsQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: OpenItemFilters,
): SelectQueryBuilder<PurchaseOrderItem> {
  const qb = em
    .createQueryBuilder(PurchaseOrderItem, 'i')
    .innerJoin(PurchaseOrder, 'o', 'o.id = i.purchase_order_id AND o.company_id = i.company_id')
    .where('i.company_id = :companyId AND o.filial_id = :filialId AND i.is_open = :open AND o.status IN (:...statuses)', {
      companyId,
      filialId,
      open: true,
      statuses: RECEIVABLE_STATUSES,
    });
  if (f.supplierDocument) qb.andWhere('o.supplier_document = :supplierDocument', { supplierDocument: f.supplierDocument });
  if (f.productId) qb.andWhere('i.product_id = :productId', { productId: f.productId });
  if (f.productIds) {
    if (!f.productIds.length) qb.andWhere('1 = 0');
    else qb.andWhere('i.product_id IN (:...productIds)', { productIds: f.productIds });
  }
  return qb;
}

/** Every open line matching, oldest order first (the NF-e auto-link; bounded by the supplier's open orders). */
export function openItems(em: EntityManager, companyId: number, filialId: number, f: OpenItemFilters): Promise<PurchaseOrderItem[]> {
  return openItemsQuery(em, companyId, filialId, f).orderBy('o.code', 'ASC').addOrderBy('i.line_number', 'ASC').getMany();
}

/** Orders by code within the company (xPed). */
export function ordersByCode(em: EntityManager, companyId: number, codes: number[]): Promise<PurchaseOrder[]> {
  const wanted = [...new Set(codes)];
  return wanted.length ? em.find(PurchaseOrder, { where: { companyId, code: In(wanted) } }) : Promise.resolve([]);
}

export function itemsOfOrders(em: EntityManager, companyId: number, orderIds: number[]): Promise<PurchaseOrderItem[]> {
  const wanted = [...new Set(orderIds)];
  return wanted.length
    ? em.find(PurchaseOrderItem, { where: { companyId, purchaseOrderId: In(wanted) }, order: { id: 'ASC' } })
    : Promise.resolve([]);
}
