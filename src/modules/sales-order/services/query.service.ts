import { normalizeText } from '../../../core/br-documents';
import { acceptFilial, assertFilialAccess, filialRead, requestFilial } from '../../tenancy';
import type { TenantContext } from '../../../core/context';
import { decodeId } from '../../../core/hashids';
import { BatchRun, Page, PageRequest, paginate, SqlList, TypedSortKey } from '../../../core/pagination';
import { paginateParts, paginateUnion, UnionBranch } from '../../../core/pagination-union';
import { queryOn, readBatch, readerOf } from '../../../core/db/transaction';
import type { EntityManager } from 'typeorm';
import { findCustomerAndSellerIds } from '../../catalog';
import { SalesOrder, SalesOrderStatus, SalesOrderType } from '../entities/sales-order.entity';
import { Fulfillment } from '../entities/fulfillment.entity';
import { FulfillmentItem } from '../entities/fulfillment-item.entity';
import { SalesOrderItem } from '../entities/sales-order-item.entity';
import { Dec, round } from '../../../core/decimal';
import { NotFoundError } from '../../../core/errors';
import {
  baseListSql,
  byCreationDays,
  byCreationRange,
  ListedOrder,
  ListFilters,
  loadListed,
  loadView,
  notFound,
  SalesOrderView,
  whereCodeInSql,
  whereCustomerInSql,
} from '../sales-order.repository';
import { startOfBusinessDay } from '../../../core/business-date';
import { addDays } from '../sales-order.rules';
import { orderFiscalDocuments, OrderFiscalDocumentView } from '../sales-order.ports';

/** The view type quick sale and other callers receive. */
export type { SalesOrderView } from '../sales-order.repository';

/** A text search resolves at most this many customers first (SPEC §6; docs/decisions.md). */
export const CUSTOMER_SEARCH_CAP = 250;
const SELLER_SEARCH_CAP = 250;
/** Codes are INT: a numeric term of more digits cannot be a code (it is searched as a document). */
const MAX_CODE = 2_147_483_647;
const MAX_CODE_DIGITS = String(MAX_CODE).length;

/** The list's sort keys (the schema validates against these). */
export const SORTS = ['-code', 'code', '-createdAt', 'createdAt'] as const;

export interface ListQuery extends PageRequest {
  search?: string;
  status?: SalesOrderStatus;
  type?: SalesOrderType;
  customerId?: number;
  sellerId?: number;
  createdFrom?: string;
  createdTo?: string;
  sort: (typeof SORTS)[number];
}

const SORT_KEYS: Record<ListQuery['sort'], TypedSortKey[]> = {
  '-code': [
    { column: 'o.code', direction: 'DESC', type: 'int' },
    { column: 'o.id', direction: 'DESC', type: 'int' },
  ],
  code: [
    { column: 'o.code', direction: 'ASC', type: 'int' },
    { column: 'o.id', direction: 'ASC', type: 'int' },
  ],
  '-createdAt': [
    { column: 'o.created_at', direction: 'DESC', type: 'datetime' },
    { column: 'o.id', direction: 'DESC', type: 'int' },
  ],
  createdAt: [
    { column: 'o.created_at', direction: 'ASC', type: 'datetime' },
    { column: 'o.id', direction: 'ASC', type: 'int' },
  ],
};

/**
 * "Equal or starts with" for a numeric term as code ranges: "12" → 12, 120–129, 1200–1299, … up to
 * the largest INT. One range list on the (company, filial, code) index, in code order, so the page
 * comes off the index without sorting (docs/decisions.md). Null when the term is not a code search.
 */
export function codeRanges(term: string): [number, number][] | null {
  if (!/^\d+$/.test(term) || term.length > MAX_CODE_DIGITS) return null;
  const value = Number(term);
  // Codes have no leading zeros: "0012" can only mean code 12.
  if (term.startsWith('0')) return value > 0 ? [[value, value]] : [];
  const ranges: [number, number][] = [];
  for (let scale = 1; value * scale <= MAX_CODE; scale *= 10) {
    ranges.push([value * scale, Math.min((value + 1) * scale - 1, MAX_CODE)]);
  }
  return ranges;
}

const idOf = (v: ListedOrder) => v.order.id;

/**
 * Lists a filial's orders and quotes: filters, numeric or text search, two-phase pagination. Phase 1
 * is plain SQL (the page's sort values and the capped count in one round trip), phase 2 reads the rows.
 */
export async function listOrders(
  ctx: TenantContext,
  filialId: number,
  q: ListQuery,
  options: { filialUnchecked?: boolean } = {},
): Promise<Page<ListedOrder>> {
  const em = readerOf(ctx);
  // A filial the pipeline left unchecked (RouteDef.filialCheck) is read in the list's first round trip
  // and refused (403) before any of that trip's rows are used: they are the tenant's own rows.
  let unchecked = options.filialUnchecked === true;
  const run: BatchRun = async (statements) => {
    if (!unchecked) return readBatch(em, statements);
    unchecked = false;
    const [filialRows, ...results] = await readBatch(em, [filialRead(ctx, filialId), ...statements]);
    acceptFilial(em, ctx, filialId, filialRows as Record<string, unknown>[]);
    return results;
  };
  try {
    return await listFrom(ctx, em, filialId, q, run);
  } catch (err) {
    // Refused before any SQL (a bad cursor): the filial still answers first, as the pipeline's check would have.
    if (unchecked) await assertFilialAccess(ctx, filialId);
    throw err;
  }
}

async function listFrom(ctx: TenantContext, em: EntityManager, filialId: number, q: ListQuery, run: BatchRun): Promise<Page<ListedOrder>> {
  const filters: ListFilters = {
    filialId,
    status: q.status,
    type: q.type,
    customerId: q.customerId,
    sellerId: q.sellerId,
    createdFrom: q.createdFrom ? startOfBusinessDay(q.createdFrom) : undefined,
    createdBefore: q.createdTo ? startOfBusinessDay(addDays(q.createdTo, 1)) : undefined,
  };
  const base = (): SqlList => baseListSql(ctx.companyId, filters);
  const sort = SORT_KEYS[q.sort];
  const load = (ids: number[]) => loadListed(em, ctx.companyId, ids);
  const term = q.search?.trim();
  if (!term) {
    const byCode = q.sort === '-code' || q.sort === 'code';
    const list = byCreationRange(base(), filters, byCode);
    const days = byCreationDays(ctx.companyId, filters, byCode);
    return days ? paginateParts(days, list, sort, q, load, idOf, run) : paginate(list, sort, q, load, idOf, run);
  }

  const ranges = codeRanges(term);
  if (ranges) return paginate(whereCodeInSql(base(), ranges), sort, q, load, idOf, run);

  // Text: customers first (capped), sellers, then orders of those or with a matching alias.
  const text = normalizeText(term);
  const { customers, sellers } = await findCustomerAndSellerIds(run, ctx.companyId, term, CUSTOMER_SEARCH_CAP, SELLER_SEARCH_CAP);
  const and = (list: SqlList, sql: string, params: unknown[]): SqlList => ({
    from: list.from,
    where: `${list.where} AND ${sql}`,
    params: [...list.params, ...params],
  });
  const branches: UnionBranch[] = [];
  if (customers.length) branches.push(whereCustomerInSql(base(), customers));
  if (sellers.length)
    branches.push({ ...and(base(), `o.seller_id IN (${sellers.map(() => '?').join(', ')})`, sellers), ranges: sellers.length });
  if (text) branches.push(and(base(), 'o.search_alias LIKE ?', [`${text}%`]));
  if (!branches.length) return paginate(and(base(), '1 = 0', []), sort, q, load, idOf, run);
  return paginateUnion(branches, sort, q, load, idOf, run);
}

/** An order of the tenant whose filial the caller may see (404 / 403). */
export async function assertReadable(ctx: TenantContext, id: number): Promise<SalesOrder> {
  const order = id > 0 ? await readerOf(ctx).findOneBy(SalesOrder, { id, companyId: ctx.companyId }) : null;
  if (!order) throw notFound();
  await assertFilialAccess(ctx, order.filialId);
  return order;
}

export async function getOrder(ctx: TenantContext, id: number): Promise<SalesOrderView> {
  const order = await assertReadable(ctx, id);
  return loadView(readerOf(ctx), ctx.companyId, order.id);
}

/** GET /sales-order/detail/:id: the order and the fiscal documents that bill or return it (NF-e, NFC-e), linked to their details. */
export async function getOrderDetail(
  ctx: TenantContext,
  id: number,
): Promise<{ view: SalesOrderView; fiscalDocuments: OrderFiscalDocumentView[] }> {
  const view = await getOrder(ctx, id);
  return { view, fiscalDocuments: await orderFiscalDocuments.get().ofOrder(ctx, id) };
}

export type ListOrGet = { kind: 'list'; page: Page<ListedOrder> } | { kind: 'order'; view: SalesOrderView };

/**
 * GET /sales-order/:x (SPEC §6): a param that decodes as a filial of the tenant lists that filial
 * (403 if the token does not grant it); anything else is read as an order id (404 when it is not one).
 * Per-type hashid salts keep the two readings apart.
 */
export async function listOrGet(
  ctx: TenantContext,
  x: string,
  q: ListQuery,
  options: { filialUnchecked?: boolean } = {},
): Promise<ListOrGet> {
  const filialId = decodeId('filial', x);
  // The filial of x-filial-id (the usual call): checked by this request already, or left to the
  // list's first round trip (RouteDef.filialCheck 'handler'); nothing to read on its own.
  if (filialId > 0 && filialId === ctx.filialId && (options.filialUnchecked || requestFilial(ctx.companyId, filialId))) {
    return { kind: 'list', page: await listOrders(ctx, filialId, q, { filialUnchecked: options.filialUnchecked }) };
  }
  if (options.filialUnchecked && ctx.filialId) await assertFilialAccess(ctx, ctx.filialId);
  // One read decides both: a filial of the tenant (then granted and active, or 403) or an order id.
  const read = filialRead(ctx, filialId);
  const filialRows = filialId > 0 ? await queryOn<Record<string, unknown>[]>(readerOf(ctx), read.sql, read.params) : [];
  if (filialRows.length) {
    acceptFilial(readerOf(ctx), ctx, filialId, filialRows);
    ctx.filialId = filialId;
    return { kind: 'list', page: await listOrders(ctx, filialId, q) };
  }
  return { kind: 'order', view: await getOrder(ctx, decodeId('sales-order', x)) };
}

/** A fulfilment's lines as billing reads them (the tax engine's preview, SPEC §12.1): the order's price and discounts pro rata. */
export interface FulfillmentForBilling {
  order: SalesOrder;
  fulfillmentId: number;
  lines: { salesOrderItemId: number; productId: number; quantity: Dec; unitPrice: Dec; discount: Dec }[];
  /** The order's freight, insurance and other expenses pro rata of the fulfilled gross value. */
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
}

export async function getFulfillmentForBilling(ctx: TenantContext, fulfillmentId: number): Promise<FulfillmentForBilling> {
  const em = readerOf(ctx);
  const fulfillment = fulfillmentId > 0 ? await em.findOneBy(Fulfillment, { id: fulfillmentId, companyId: ctx.companyId }) : null;
  if (!fulfillment) throw new NotFoundError('Fulfillment');
  const order = await assertReadable(ctx, fulfillment.salesOrderId);
  const [fitems, items] = await Promise.all([
    em.findBy(FulfillmentItem, { companyId: ctx.companyId, fulfillmentId }),
    em.findBy(SalesOrderItem, { companyId: ctx.companyId, salesOrderId: order.id }),
  ]);
  const byId = new Map(items.map((i) => [i.id, i]));
  const lines = fitems
    .sort((a, b) => a.id - b.id)
    .map((f) => {
      const item = byId.get(f.salesOrderItemId)!;
      const share = item.quantity.isZero() ? new Dec(0) : f.quantity.div(item.quantity);
      return {
        salesOrderItemId: item.id,
        productId: item.productId,
        quantity: f.quantity,
        unitPrice: item.unitPrice,
        discount: round(item.discount.plus(item.orderDiscountShare).times(share), 'amount'),
      };
    });
  const gross = lines.reduce((acc, l) => acc.plus(l.quantity.times(l.unitPrice)), new Dec(0));
  const share = (v: Dec) => (order.grossTotal.isZero() ? new Dec(0) : round(v.times(gross).div(order.grossTotal), 'amount'));
  return {
    order,
    fulfillmentId,
    lines,
    freight: share(order.freight),
    insurance: share(order.insurance),
    otherExpenses: share(order.otherExpenses),
  };
}
