import { EntityManager } from 'typeorm';
import { normalizeText } from '../../../core/br-documents';
import type { ActorContext, TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec } from '../../../core/decimal';
import { BusinessRuleError, ValidationError } from '../../../core/errors';
import { nextSequenceValue } from '../../../core/sequence/sequence.service';
import { FlowMode, SalesOrder, SalesOrderType } from '../entities/sales-order.entity';
import { itemsOf, loadView, SalesOrderView } from '../sales-order.repository';
import { businessToday } from '../../../core/business-date';
import { addDays, PaymentTerms, paymentTermsColumn, QUOTE_VALIDITY_DAYS } from '../sales-order.rules';
import { draftLines, ItemInput, LineDraft, priceLines, totalsColumns } from './lines';
import { auditOrder, publishOrderEvent, resolveCustomer, resolveProducts, resolveSeller } from './shared';
import type { Customer, Product, Seller } from '../../catalog';
import { SalesOrderItem } from '../entities/sales-order-item.entity';
import { Fulfillment } from '../entities/fulfillment.entity';
import { insertWithLines, TenantRow } from '../../../core/db/sql';

export const SALES_ORDER_CODE_SEQUENCE = 'sales-order-code';

export interface CreateSalesOrderInput {
  filialId: number;
  /** A code taken with reserveSalesOrderCode (default: taken here). */
  code?: number;
  type?: SalesOrderType;
  flowMode?: FlowMode;
  customerId?: number | null;
  sellerId?: number | null;
  alias?: string | null;
  notes?: string | null;
  paymentTerms?: PaymentTerms | null;
  discount?: Dec;
  freight?: Dec;
  validUntil?: string | null;
  items: ItemInput[];
  /**
   * The customer and seller as the caller already read them in the tenant (checked active), and the
   * lines' products as resolveProducts answered them (found, active): not read again.
   */
  resolved?: { customer?: Customer | null; seller?: Seller | null; products?: Map<number, Product> };
  /**
   * The caller fulfils every line in full later in this same transaction (the quick sale): the rows
   * are written as that fulfilment leaves them (lines fulfilled, order FULFILLED at version 2), so it
   * updates nothing. What this function answers, audits and publishes is still the new OPEN order.
   * The fulfilment's own row is inserted with the order (same round trip on MySQL) and answered as
   * `fulfillment`.
   */
  fulfilledOnInsert?: boolean;
}

/**
 * Takes the next order code (one autocommitted statement of the sequence service). Callers may take
 * it before opening their transaction and pass it in `code`, so no work waits on the counter while
 * holding row locks. Unique and increasing; a rollback leaves a gap.
 */
export const reserveSalesOrderCode = (em: EntityManager, companyId: number) => nextSequenceValue(em, companyId, SALES_ORDER_CODE_SEQUENCE);

export const blankToNull = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s.trim());

/** Quotes are valid for 30 days unless told otherwise, and never from a day already past. */
export function quoteValidity(given: string | null | undefined, path = 'validUntil'): string {
  const today = businessToday();
  if (given === undefined || given === null) return addDays(today, QUOTE_VALIDITY_DAYS);
  if (given < today) throw new BusinessRuleError('VALID_UNTIL_IN_THE_PAST', `validUntil ${given} is before today (${today})`, { errors: [{ path, message: 'must not be in the past' }] });
  return given;
}

/** The ids the lines of a new order got, in the order of `rows` (matched by line number). */
async function lineIdsOf(em: EntityManager, companyId: number, orderId: number, rows: readonly { lineNumber?: number }[]): Promise<number[]> {
  const idOf = new Map((await itemsOf(em, companyId, [orderId])).map((i) => [i.lineNumber, i.id]));
  return rows.map((r) => idOf.get(r.lineNumber!)!);
}

/**
 * Writes a new order and its lines inside the caller's transaction: references checked in the tenant,
 * prices defaulted from the products, amounts from priceLines, a fresh code, audit and event. The quick
 * sale composes this with fulfillSalesOrderItems in one transaction.
 */
export async function createSalesOrder(
  em: EntityManager,
  ctx: ActorContext,
  input: CreateSalesOrderInput,
  drafts?: LineDraft[],
): Promise<{ order: SalesOrder; items: SalesOrderItem[]; products?: Map<number, Product>; fulfilledOnInsert?: boolean; fulfillment?: Fulfillment }> {
  const type = input.type ?? 'ORDER';
  const products = drafts
    ? undefined
    : (input.resolved?.products ??
      (await resolveProducts(
        em,
        ctx.companyId,
        input.items.map((i) => i.productId),
        (i) => `items[${i}].productId`,
      )));
  const lines = drafts ?? draftLines(input.items, products!);
  const resolved = input.resolved ?? {};
  if (input.customerId && resolved.customer?.id !== input.customerId) await resolveCustomer(em, ctx.companyId, input.customerId);
  if (input.sellerId && resolved.seller?.id !== input.sellerId) await resolveSeller(em, ctx.companyId, input.sellerId);
  const validUntil = type === 'QUOTE' ? quoteValidity(input.validUntil) : null;
  const { rows, totals } = priceLines(ctx.companyId, 0, lines, input.discount ?? new Dec(0), input.freight ?? new Dec(0));

  const alias = blankToNull(input.alias);
  const now = new Date();
  const order = em.create(SalesOrder, {
    companyId: ctx.companyId,
    filialId: input.filialId,
    code: input.code ?? (await reserveSalesOrderCode(em, ctx.companyId)),
    type,
    flowMode: input.flowMode ?? 'STANDARD',
    status: 'OPEN',
    customerId: input.customerId ?? null,
    sellerId: input.sellerId ?? null,
    alias,
    searchAlias: alias ? normalizeText(alias) || null : null,
    notes: blankToNull(input.notes),
    paymentTerms: paymentTermsColumn(input.paymentTerms),
    ...totalsColumns(totals),
    validUntil,
    groupedIntoId: null,
    cancelReason: null,
    cancelledAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  });
  // Every column is known here, so nothing needs reading back but the ids (the lines' too when the
  // server may interleave the ids of one INSERT: Galera, MySQL 8's default auto-increment mode).
  // The lines answered are the new OPEN order's, even when written fulfilled (fulfilledOnInsert).
  const itemRows: TenantRow<SalesOrderItem>[] = rows.map(({ keepId: _keep, ...row }) => row);
  const fulfillmentRow = input.fulfilledOnInsert ? { companyId: ctx.companyId, filialId: input.filialId, actor: ctx.actor, createdAt: now } : undefined;
  const inserted = fulfillmentRow
    ? await insertWithLines(
        em,
        SalesOrder,
        { ...order, status: 'FULFILLED', version: 2 },
        SalesOrderItem,
        itemRows.map((row) => ({ ...row, fulfilledQuantity: row.quantity })),
        'salesOrderId',
        {
          target: Fulfillment,
          row: fulfillmentRow,
          parentKey: 'salesOrderId',
        },
      )
    : await insertWithLines(em, SalesOrder, order, SalesOrderItem, itemRows, 'salesOrderId');
  order.id = inserted.id;
  const fulfillment = fulfillmentRow ? Object.assign(new Fulfillment(), { id: inserted.siblingId!, salesOrderId: order.id, ...fulfillmentRow }) : undefined;
  const ids = inserted.lineIds ?? (await lineIdsOf(em, ctx.companyId, order.id, itemRows));
  const items = itemRows.map((row, i) => Object.assign(new SalesOrderItem(), row, { id: ids[i], salesOrderId: order.id }));
  await auditOrder(em, ctx, order, 'CREATED', { status: [null, order.status], type: [null, type], total: [null, totals.total.toFixed(2)] });
  await publishOrderEvent(em, ctx, order, 'created', { flowMode: order.flowMode, total: Number(totals.total.toFixed(2)), items: items.length });
  return { order, items, products, fulfilledOnInsert: input.fulfilledOnInsert, fulfillment };
}

export type CreateRequest = Omit<CreateSalesOrderInput, 'filialId'>;

/**
 * POST /sales-order. The order belongs to the governing filial (x-filial-id). Standard orders and
 * quotes are created here; QUICK_SALE bodies go to the quick-sale flow (src/modules/quick-sale).
 */
export async function createFromRequest(ctx: TenantContext, body: CreateRequest): Promise<SalesOrderView> {
  if (!ctx.filialId) {
    throw new ValidationError('x-filial-id header is required to create a sales order', [{ path: 'x-filial-id', message: 'required' }], 'MISSING_FILIAL');
  }
  const filialId = ctx.filialId;
  const code = await reserveSalesOrderCode(readerOf(ctx), ctx.companyId);
  const { order } = await inTransaction(ctx, (em) => createSalesOrder(em, ctx, { ...body, filialId, code }));
  return loadView(readerOf(ctx), ctx.companyId, order.id);
}
