import { EntityManager } from 'typeorm';
import { normalizeText } from '../../../core/br-documents';
import type { ActorContext, TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec } from '../../../core/decimal';
import { BusinessRuleError, ValidationError } from '../../../core/errors';
import { nextSequenceValue } from '../../../core/sequence/sequence.service';
import { createdDayOf, FlowMode, SalesOrder, SalesOrderType } from '../entities/sales-order.entity';
import { loadView, SalesOrderView } from '../sales-order.repository';
import { businessToday } from '../../../core/business-date';
import { addDays, PaymentTerms, paymentTermsColumn, QUOTE_VALIDITY_DAYS } from '../sales-order.rules';
import { chargesOf, draftLines, ItemInput, LineDraft, priceLines, totalsColumns } from './lines';
import { auditOrder, publishOrderEvent, resolveCustomer, resolveProducts, resolveSeller } from './shared';
import { SalesOrderItem } from '../entities/sales-order-item.entity';
import { assertBoletoTerms } from '../../collection';
import { encodeId } from '../../../core/hashids';
import { Fulfillment } from '../entities/fulfillment.entity';
import { deferInsertRows } from '../../../core/db/sql';
import { allocateId, allocateIds } from '../../../core/sequence/ids';

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
  /** Boleto on billing: the collection account whose boletos each billing of the order issues. */
  boletoBankAccountId?: number | null;
  discount?: Dec;
  freight?: Dec;
  /** vSeg of its NF-e. */
  insurance?: Dec;
  /** vOutro of its NF-e (other accessory expenses). */
  otherExpenses?: Dec;
  finalConsumer?: boolean | null;
  validUntil?: string | null;
  items: ItemInput[];
}

/**
 * Takes the next order code (one autocommitted statement of the sequence service). Callers may take
 * it before opening their transaction and pass it in `code`, so no work waits on the counter while
 * holding row locks. Unique and increasing; a rollback leaves a gap.
 */
export const reserveSalesOrderCode = (em: EntityManager, companyId: number) => nextSequenceValue(em, companyId, SALES_ORDER_CODE_SEQUENCE);

export const blankToNull = (s: string | null | undefined): string | null =>
  s === undefined || s === null || s.trim() === '' ? null : s.trim();

/** Quotes are valid for 30 days unless told otherwise, and never from a day already past. */
export function quoteValidity(given: string | null | undefined, path = 'validUntil'): string {
  const today = businessToday();
  if (given === undefined || given === null) return addDays(today, QUOTE_VALIDITY_DAYS);
  if (given < today)
    throw new BusinessRuleError('VALID_UNTIL_IN_THE_PAST', `validUntil ${given} is before today (${today})`, {
      errors: [{ path, message: 'must not be in the past' }],
    });
  return given;
}

/**
 * Writes a new order and its lines inside the caller's transaction: references checked in the tenant,
 * prices defaulted from the products, amounts from priceLines, a fresh code, audit and event. `drafts`:
 * lines already drafted by the caller (grouping), whose products are not read again.
 */
export async function createSalesOrder(
  em: EntityManager,
  ctx: ActorContext,
  input: CreateSalesOrderInput,
  drafts?: LineDraft[],
): Promise<{ order: SalesOrder; items: SalesOrderItem[] }> {
  const lines =
    drafts ??
    draftLines(
      input.items,
      await resolveProducts(
        em,
        ctx.companyId,
        input.items.map((i) => i.productId),
        (i) => `items[${i}].productId`,
      ),
    );
  if (input.customerId) await resolveCustomer(em, ctx.companyId, input.customerId);
  if (input.sellerId) await resolveSeller(em, ctx.companyId, input.sellerId);
  return writeOrder(em, ctx, input, lines);
}

/**
 * Module-internal (create and deliver.service.ts): prices and writes a new order whose references the
 * caller checked. Its ids are taken before the INSERTs (core/sequence/ids.ts), so the rows go out as
 * deferred writes with the transaction's next statement, and nothing is read back. `fulfilment`: the
 * order is delivered in full in this same transaction (deliver.service.ts): the rows are written as
 * that delivery leaves them (lines fulfilled, order FULFILLED at version 2) with the fulfilment's own
 * row, so it updates nothing; what this answers, audits and publishes is still the new OPEN order.
 */
export async function writeOrder(
  em: EntityManager,
  ctx: ActorContext,
  input: CreateSalesOrderInput,
  lines: LineDraft[],
  fulfilment?: { id: number; createdAt: Date },
): Promise<{ order: SalesOrder; items: SalesOrderItem[] }> {
  const type = input.type ?? 'ORDER';
  const validUntil = type === 'QUOTE' ? quoteValidity(input.validUntil) : null;
  const { rows, totals } = priceLines(ctx.companyId, 0, lines, input.discount ?? new Dec(0), chargesOf(undefined, input));
  const [id, lineIds, code] = await Promise.all([
    allocateId(em, SalesOrder),
    allocateIds(em, SalesOrderItem, rows.length),
    input.code ?? reserveSalesOrderCode(em, ctx.companyId),
  ]);

  const alias = blankToNull(input.alias);
  const now = fulfilment?.createdAt ?? new Date();
  const order = em.create(SalesOrder, {
    id,
    companyId: ctx.companyId,
    filialId: input.filialId,
    code,
    type,
    flowMode: input.flowMode ?? 'STANDARD',
    status: 'OPEN',
    customerId: input.customerId ?? null,
    sellerId: input.sellerId ?? null,
    alias,
    searchAlias: alias ? normalizeText(alias) || null : null,
    notes: blankToNull(input.notes),
    paymentTerms: paymentTermsColumn(input.paymentTerms),
    boletoBankAccountId: input.boletoBankAccountId ?? null,
    finalConsumer: input.finalConsumer ?? null,
    ...totalsColumns(totals),
    validUntil,
    groupedIntoId: null,
    cancelReason: null,
    cancelledAt: null,
    version: 1,
    createdAt: now,
    createdDay: createdDayOf(now),
    updatedAt: now,
  });
  const items = rows.map(({ keepId: _keep, ...row }, i) => Object.assign(new SalesOrderItem(), row, { id: lineIds[i], salesOrderId: id }));
  if (fulfilment) {
    await deferInsertRows(em, SalesOrder, [{ ...order, status: 'FULFILLED', version: 2 }]);
    await deferInsertRows(
      em,
      SalesOrderItem,
      items.map((item) => ({ ...item, fulfilledQuantity: item.quantity })),
    );
    await deferInsertRows(em, Fulfillment, [
      {
        id: fulfilment.id,
        companyId: ctx.companyId,
        filialId: input.filialId,
        salesOrderId: id,
        actor: ctx.actor,
        createdAt: fulfilment.createdAt,
      },
    ]);
  } else {
    await deferInsertRows(em, SalesOrder, [order]);
    await deferInsertRows(em, SalesOrderItem, items);
  }
  await auditOrder(em, ctx, order, 'CREATED', {
    status: [null, order.status],
    type: [null, type],
    total: [null, totals.total.toFixed(2)],
    ...(order.boletoBankAccountId !== null && { boletoBankAccountId: [null, encodeId('bank-account', order.boletoBankAccountId)] }),
  });
  await publishOrderEvent(em, ctx, order, 'created', {
    flowMode: order.flowMode,
    total: Number(totals.total.toFixed(2)),
    items: items.length,
  });
  return { order, items };
}

export type CreateRequest = Omit<CreateSalesOrderInput, 'filialId'>;

/**
 * POST /sales-order. The order belongs to the governing filial (x-filial-id). Standard orders and
 * quotes are created here; QUICK_SALE bodies go to the quick-sale flow (src/modules/quick-sale).
 */
export async function createFromRequest(ctx: TenantContext, body: CreateRequest): Promise<SalesOrderView> {
  if (!ctx.filialId) {
    throw new ValidationError(
      'x-filial-id header is required to create a sales order',
      [{ path: 'x-filial-id', message: 'required' }],
      'MISSING_FILIAL',
    );
  }
  const filialId = ctx.filialId;
  const code = await reserveSalesOrderCode(readerOf(ctx), ctx.companyId);
  const { order } = await inTransaction(ctx, async (em) => {
    // Boleto on billing: the account and the payer are refused now when they cannot carry the boletos.
    if (body.boletoBankAccountId !== undefined && body.boletoBankAccountId !== null)
      await assertBoletoTerms(em, ctx, { bankAccountId: body.boletoBankAccountId, filialId, customerId: body.customerId ?? null });
    return createSalesOrder(em, ctx, { ...body, filialId, code });
  });
  return loadView(readerOf(ctx), ctx.companyId, order.id);
}
