import { EntityManager, In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, sum, toFixed, toJsonNumber } from '../../core/decimal';
import { AppError, BusinessRuleError, FieldError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { nextSequenceValue } from '../../core/sequence/sequence.service';
import { Customer, PaymentMethod, Product } from '../catalog';
import { postToLedger } from '../stock';
import type { FiscalOrigin } from './entities/sales-return-item.entity';
import { SalesReturnItem } from './entities/sales-return-item.entity';
import { SalesReturn } from './entities/sales-return.entity';
import {
  fulfillmentItemsOf,
  loadReturnableLines,
  loadReturns,
  lockReturnLines,
  ReturnableLine,
  returnableLinesQuery,
} from './returns.repository';
import { departureCost, refundFor } from './returns.rules';
import { canDo, recordReturnedQuantities } from '../sales-order';
import { creditReturn, refundsOfReturns } from '../receivables';
import type { ReturnRefund } from '../receivables';
import { invoicesOfSource, SourceInvoice } from '../outbound-nfe';
import type { SalesReturnTaxCredit } from './entities/sales-return-tax-credit.entity';
import { allocateOrigins, creditsOfReturns, originalsOfSales } from './return-document.service';
import { issueDevolution, pendingOriginsOfSales } from './devolution.service';
import { assertPeriodOpen } from '../fiscal-periods';

export const RETURN_CODE_SEQUENCE = 'return-code';

export interface ReturnInput {
  customerId: number;
  reason: string;
  refundMethod: string;
  items: { salesOrderItemId: number; quantity: Dec; restock: boolean }[];
}

/** A return with its fiscal side: our devolução documents (or the customer's imported key), the credits taken. */
export interface ReturnView {
  ret: SalesReturn;
  items: SalesReturnItem[];
  documents: SourceInvoice[];
  credits: SalesReturnTaxCredit[];
  /** Where the refund went: the sale's receivables it reduced, the store credit or refund it left. */
  refund: ReturnRefund;
  /** Why our devolução could not be issued with the return (it may be issued again: POST /returns/{id}/document). */
  documentProblem?: { code: string; detail: string } | null;
}

async function withFiscal(
  em: EntityManager,
  companyId: number,
  rows: { ret: SalesReturn; items: SalesReturnItem[] }[],
): Promise<ReturnView[]> {
  const ids = rows.map((r) => r.ret.id);
  const [docs, credits, refunds] = await Promise.all([
    invoicesOfSource(companyId, 'CUSTOMER_RETURN', ids, em),
    creditsOfReturns(em, companyId, ids),
    refundsOfReturns(em, companyId, ids),
  ]);
  return rows.map((r) => ({
    ...r,
    documents: docs.get(r.ret.id) ?? [],
    credits: credits.filter((c) => c.returnId === r.ret.id),
    refund: refunds.get(r.ret.id) ?? { receivables: [], customerCredits: [] },
  }));
}

/** What booking a return needs beyond the request: where it came from (counter or an imported devolução). */
export interface Booking {
  origin: 'COUNTER' | 'IMPORTED';
  importedAccessKey: string | null;
  /** IMPORTED: the lines of the customer's document already traced to ours. */
  origins?: Map<number, FiscalOrigin[]>;
  /** IMPORTED: what else commits with the return (the credits of the customer's document). */
  afterBooked?: (em: EntityManager, returnId: number) => Promise<void>;
  /** The registering request's Idempotency-Key, kept on the return (a retry after a crash finds it). */
  requestKey?: string | null;
}

async function assertCustomer(em: EntityManager, companyId: number, customerId: number): Promise<void> {
  if (!(await em.existsBy(Customer, { id: customerId, companyId }))) throw new NotFoundError('Customer');
}

export const returnsService = {
  /**
   * Lines of the customer's delivered sales in the filial that still have units to give back, newest
   * order first: a two-phase list over all of them (cursor for deep scrolling).
   */
  async returnableItems(ctx: TenantContext, filialId: number, customerId: number, page: PageRequest): Promise<Page<ReturnableLine>> {
    await assertCustomer(readerOf(ctx), ctx.companyId, customerId);
    const em = readerOf(ctx);
    return paginate(
      returnableLinesQuery(em, ctx.companyId, filialId, customerId),
      [
        { column: 'o.code', direction: 'DESC' },
        { column: 'i.line_number', direction: 'ASC' },
        { column: 'i.id', direction: 'ASC' },
      ],
      page,
      (ids) => loadReturnableLines(em, ctx.companyId, ids),
      (l) => l.item.id,
    );
  },

  /**
   * Registers a return in one transaction: the touched order lines are locked, every quantity is
   * checked against what is returnable now (so two returns of the last unit cannot both pass),
   * restocked goods come back at the cost they left with, damaged ones post no stock, the refund is
   * each line's net value of the returned units, and returned quantities go up.
   */
  async register(ctx: TenantContext, filialId: number, input: ReturnInput, requestKey: string | null = null): Promise<ReturnView> {
    // The booking commits on its own, the devolução is issued after it (no call to the authority inside
    // a transaction): a retry of a request that booked its return and died before answering finds it.
    const registered = requestKey
      ? await readerOf(ctx).findOne(SalesReturn, {
          where: { companyId: ctx.companyId, requestKey: requestKey.slice(0, 255) },
          select: { id: true },
        })
      : null;
    const returnId = registered?.id ?? (await this.book(ctx, filialId, input, { origin: 'COUNTER', importedAccessKey: null, requestKey }));
    // Goods sold with our NF-e/NFC-e come back with our entry devolução, issued as part of the return.
    const problem = await issueReturnDocument(ctx, returnId, requestKey);
    const [view] = await withFiscal(readerOf(ctx), ctx.companyId, await loadReturns(readerOf(ctx), ctx.companyId, [returnId]));
    return { ...view, documentProblem: problem };
  },

  /** Issues (again) our devolução of a return: after a failure at registration, or after a cancellation. */
  async issueDocument(ctx: TenantContext, id: number, requestKey: string | null): Promise<ReturnView> {
    const [found] = await loadReturns(readerOf(ctx), ctx.companyId, [id]);
    if (!found) throw new NotFoundError('Return');
    await assertFilialAccess(ctx, found.ret.filialId);
    await issueDevolution(ctx, id, requestKey);
    const [view] = await withFiscal(readerOf(ctx), ctx.companyId, await loadReturns(readerOf(ctx), ctx.companyId, [id]));
    return view;
  },

  /** The return's booking (one transaction): returnable check under locks, stock, returned quantities, receivables; its id. */
  async book(ctx: TenantContext, filialId: number, input: ReturnInput, booking: Booking): Promise<number> {
    assertNoRepeatedItem(input);
    await assertCustomer(readerOf(ctx), ctx.companyId, input.customerId);
    const method = await activeRefundMethod(ctx, input);
    const code = await nextSequenceValue(readerOf(ctx), ctx.companyId, RETURN_CODE_SEQUENCE);

    return inTransaction(ctx, async (em) => {
      // Booked today (stock back, receivables credited): refused while today's period is closed.
      await assertPeriodOpen(em, ctx.companyId, filialId, new Date());
      const { orders, items } = await lockReturnLines(
        em,
        ctx.companyId,
        input.items.map((l) => l.salesOrderItemId),
      );
      assertReturnable(filialId, input, orders, items);
      const lines = await returnLines(em, ctx, input, items);
      const b: BookingStep = { em, ctx, filialId, input, booking, method, code, lines, refundAmount: sum(lines.map((l) => l.refund)) };
      const { pending, origins } = await traceFiscalOrigins(b, items);
      const returnId = await insertReturn(b, pending.length > 0, origins);
      await recordReturnedQuantities(
        em,
        ctx.companyId,
        lines.map((l) => ({ id: l.item.id, returnedQuantity: l.item.returnedQuantity.plus(l.input.quantity) })),
      );
      await restockReturnedGoods(b, returnId);
      await creditCustomer(b, returnId);
      await auditReturnedQuantities(b, returnId);
      await booking.afterBooked?.(em, returnId);
      await publishReturnRegistered(b, returnId);
      return returnId;
    });
  },

  async list(
    ctx: TenantContext,
    filialId: number,
    q: PageRequest & { customerId?: number; from?: string; to?: string },
  ): Promise<Page<ReturnView>> {
    const em = readerOf(ctx);
    const qb = em
      .createQueryBuilder(SalesReturn, 'r')
      .where('r.company_id = :companyId AND r.filial_id = :filialId', { companyId: ctx.companyId, filialId });
    if (q.customerId !== undefined) qb.andWhere('r.customer_id = :customerId', { customerId: q.customerId });
    if (q.from) qb.andWhere('r.created_at >= :from', { from: `${q.from} 00:00:00` });
    if (q.to) qb.andWhere('r.created_at <= :to', { to: `${q.to} 23:59:59.999` });
    return paginate(
      qb,
      [{ column: 'r.id', direction: 'DESC' }],
      q,
      async (ids) => withFiscal(em, ctx.companyId, await loadReturns(em, ctx.companyId, ids)),
      (r) => r.ret.id,
    );
  },

  async detail(ctx: TenantContext, id: number): Promise<ReturnView> {
    const [found] = await loadReturns(readerOf(ctx), ctx.companyId, id > 0 ? [id] : []);
    if (!found) throw new NotFoundError('Return');
    await assertFilialAccess(ctx, found.ret.filialId);
    const [view] = await withFiscal(readerOf(ctx), ctx.companyId, [found]);
    return view;
  },
};

/**
 * Our entry devolução for a return traced to documents of ours; null when issued (or nothing to issue),
 * else the problem (certificate, fiscal data, authority): the return stands and the document may be issued later.
 */
async function issueReturnDocument(
  ctx: TenantContext,
  returnId: number,
  requestKey: string | null,
): Promise<{ code: string; detail: string } | null> {
  // A return whose sale's document is pending answers RETURN_ORIGIN_PENDING here: issued automatically later.
  try {
    await issueDevolution(ctx, returnId, requestKey);
    return null;
  } catch (err) {
    if (err instanceof AppError && err.code === 'RETURN_WITHOUT_FISCAL_DOCUMENT') return null;
    if (err instanceof AppError) return { code: err.code, detail: err.message };
    throw err;
  }
}

type LockedLines = Awaited<ReturnType<typeof lockReturnLines>>;
type ReturnLine = {
  input: ReturnInput['items'][number];
  item: LockedLines['items'][number];
  unitCost: Dec;
  refund: Dec;
  lineIndex: number;
};

/** What the steps of one booking share: the transaction, the request, and the lines being returned. */
interface BookingStep {
  em: EntityManager;
  ctx: TenantContext;
  filialId: number;
  input: ReturnInput;
  booking: Booking;
  method: PaymentMethod;
  code: number;
  lines: ReturnLine[];
  refundAmount: Dec;
}

function assertNoRepeatedItem(input: ReturnInput) {
  const seen = new Set<number>();
  const repeated: FieldError[] = [];
  input.items.forEach((l, i) =>
    seen.has(l.salesOrderItemId)
      ? repeated.push({ path: `items[${i}].salesOrderItemId`, message: 'the same item appears twice' })
      : seen.add(l.salesOrderItemId),
  );
  if (repeated.length) throw new ValidationError('The same item appears twice', repeated);
}

async function activeRefundMethod(ctx: TenantContext, input: ReturnInput): Promise<PaymentMethod> {
  const method = await readerOf(ctx).findOneBy(PaymentMethod, { companyId: ctx.companyId, code: input.refundMethod });
  if (!method || !method.active) {
    throw new BusinessRuleError('REFUND_METHOD_INVALID', `Refund method ${input.refundMethod} is unknown or inactive`, {
      errors: [{ path: 'refundMethod', message: 'unknown or inactive payment method' }],
    });
  }
  return method;
}

/** Every line under the locks: an item delivered to this customer in this filial, no more than is returnable now. */
function assertReturnable(filialId: number, input: ReturnInput, orders: LockedLines['orders'], items: LockedLines['items']) {
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const itemById = new Map(items.map((i) => [i.id, i]));
  const problems: FieldError[] = [];
  input.items.forEach((l, i) => {
    const item = itemById.get(l.salesOrderItemId);
    const order = item && orderById.get(item.salesOrderId);
    const path = `items[${i}]`;
    if (!item || !order || order.filialId !== filialId || order.customerId !== input.customerId || !canDo(order, 'return')) {
      problems.push({ path: `${path}.salesOrderItemId`, message: 'not an item delivered to this customer in this filial' });
      return;
    }
    const available = item.fulfilledQuantity.minus(item.returnedQuantity);
    if (l.quantity.gt(available)) problems.push({ path: `${path}.quantity`, message: `only ${toFixed(available, 'quantity')} returnable` });
  });
  if (problems.length) {
    throw new BusinessRuleError('RETURN_QUANTITY_EXCEEDS_RETURNABLE', 'Some lines cannot be returned as asked', { errors: problems });
  }
}

/** Each line with the cost its units left with and its refund. */
async function returnLines(em: EntityManager, ctx: TenantContext, input: ReturnInput, items: LockedLines['items']): Promise<ReturnLine[]> {
  const itemById = new Map(items.map((i) => [i.id, i]));
  const fulfilled = await fulfillmentItemsOf(
    em,
    ctx.companyId,
    items.map((i) => i.id),
  );
  return input.items.map((l, lineIndex) => {
    const item = itemById.get(l.salesOrderItemId)!;
    const unitCost = departureCost(fulfilled.filter((f) => f.salesOrderItemId === item.id));
    return { input: l, item, unitCost, refund: refundFor(item, item.returnedQuantity, l.quantity), lineIndex };
  });
}

/**
 * The units are traced to the sale's authorized NF-e/NFC-e lines (under the same locks, so two returns
 * never take the same units) — once none of the sale's documents is pending (devolution.service.ts):
 * until then the return is PENDING and traces them later.
 */
async function traceFiscalOrigins({ em, ctx, booking, lines }: BookingStep, items: LockedLines['items']) {
  const sales = [...new Set(items.map((i) => i.salesOrderId))];
  const pending = booking.origins ? [] : await pendingOriginsOfSales(ctx.companyId, sales, em);
  const origins =
    booking.origins ??
    (pending.length
      ? new Map<number, FiscalOrigin[]>()
      : await allocateOrigins(
          em,
          ctx.companyId,
          lines.map((l) => ({ line: l.item, quantity: l.input.quantity })),
          await originalsOfSales(ctx.companyId, sales, em),
        ));
  return { pending, origins };
}

async function insertReturn(b: BookingStep, originsPending: boolean, origins: Map<number, FiscalOrigin[]>): Promise<number> {
  const { em, ctx, input, booking } = b;
  const insert = await em.insert(SalesReturn, {
    companyId: ctx.companyId,
    filialId: b.filialId,
    code: b.code,
    customerId: input.customerId,
    reason: input.reason,
    refundMethod: b.method.code,
    refundAmount: b.refundAmount,
    actor: ctx.actor,
    origin: booking.origin,
    importedAccessKey: booking.importedAccessKey,
    originStatus: originsPending ? 'PENDING' : 'RESOLVED',
    requestKey: booking.requestKey?.slice(0, 255) ?? null,
  });
  const returnId = Number(insert.identifiers[0].id);
  await em.insert(
    SalesReturnItem,
    b.lines.map((l) => ({
      companyId: ctx.companyId,
      returnId,
      salesOrderId: l.item.salesOrderId,
      salesOrderItemId: l.item.id,
      productId: l.item.productId,
      quantity: l.input.quantity,
      restock: l.input.restock,
      unitCost: l.unitCost,
      refundAmount: l.refund,
      fiscalOrigins: origins.get(l.item.id) ?? null,
    })),
  );
  return returnId;
}

/** Restocked lines of stock-controlled products go back to stock at the cost they left with. */
async function restockReturnedGoods({ em, ctx, filialId, lines }: BookingStep, returnId: number) {
  const restocked = lines.filter((l) => l.input.restock);
  const stockControlled = restocked.length
    ? new Set(
        (
          await em.find(Product, {
            where: { companyId: ctx.companyId, id: In(restocked.map((l) => l.item.productId)), stockControlled: true },
            select: { id: true },
          })
        ).map((p) => p.id),
      )
    : new Set<number>();
  await postToLedger(em, {
    companyId: ctx.companyId,
    filialId,
    reason: 'RETURN',
    referenceType: 'return',
    referenceId: returnId,
    actor: ctx.actor,
    lines: restocked
      .filter((l) => stockControlled.has(l.item.productId))
      .map((l) => ({
        productId: l.item.productId,
        direction: 'IN' as const,
        quantity: l.input.quantity,
        unitCost: l.unitCost,
        referenceLineId: l.item.id,
      })),
  });
}

/** The refund credits the customer: the sales' open receivables first, the rest a credit or a refund. */
async function creditCustomer({ em, ctx, filialId, input, method, lines }: BookingStep, returnId: number) {
  const byOrder = new Map<number, Dec>();
  lines.forEach((l) => byOrder.set(l.item.salesOrderId, (byOrder.get(l.item.salesOrderId) ?? new Dec(0)).plus(l.refund)));
  await creditReturn(em, ctx, {
    returnId,
    filialId,
    customerId: input.customerId,
    refundMethod: { code: method.code, kind: method.kind },
    orders: [...byOrder].map(([salesOrderId, amount]) => ({ salesOrderId, amount })),
  });
}

async function auditReturnedQuantities({ em, ctx, lines }: BookingStep, returnId: number) {
  await recordAudit(em, ctx, {
    entity: 'return',
    entityId: returnId,
    action: 'REGISTERED',
    changes: Object.fromEntries(
      lines.map((l) => [
        `salesOrderItem:${encodeId('sales-order-item', l.item.id)}.returnedQuantity`,
        [toFixed(l.item.returnedQuantity, 'quantity'), toFixed(l.item.returnedQuantity.plus(l.input.quantity), 'quantity')],
      ]),
    ),
  });
}

async function publishReturnRegistered(
  { em, ctx, filialId, input, booking, method, code, lines, refundAmount }: BookingStep,
  returnId: number,
) {
  await publishEvent(em, ctx, {
    type: 'return.registered',
    filialId,
    aggregateType: 'return',
    aggregateId: returnId,
    data: {
      returnId: encodeId('return', returnId),
      code,
      customerId: encodeId('customer', input.customerId),
      refundMethod: method.code,
      refundAmount: toJsonNumber(refundAmount, 'amount'),
      origin: booking.origin,
      importedAccessKey: booking.importedAccessKey,
      items: lines.map((l) => ({
        salesOrderId: encodeId('sales-order', l.item.salesOrderId),
        salesOrderItemId: encodeId('sales-order-item', l.item.id),
        productId: encodeId('product', l.item.productId),
        quantity: toJsonNumber(l.input.quantity, 'quantity'),
        restock: l.input.restock,
      })),
    },
  });
}
