import { EntityManager } from 'typeorm';
import { Changes, diff } from '../../../core/audit/audit.service';
import { normalizeText } from '../../../core/br-documents';
import type { TenantContext } from '../../../core/context';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { Dec } from '../../../core/decimal';
import { BusinessRuleError, ConflictError, StaleVersionError } from '../../../core/errors';
import { encodeId, encodeOptionalId } from '../../../core/hashids';
import { SalesOrderItem } from '../entities/sales-order-item.entity';
import { allocateIds } from '../../../core/sequence/ids';
import { insertChunked } from '../../../core/db/sql';
import { SalesOrder } from '../entities/sales-order.entity';
import { loadView, lockItems, SalesOrderView, deferOrderUpdateIf } from '../sales-order.repository';
import { anythingFulfilled, isExpired, PaymentTerms, paymentTermsColumn } from '../sales-order.rules';
import { assertAllowed } from '../sales-order.state';
import { assertBoletoTerms } from '../../collection';
import { blankToNull, quoteValidity } from './create.service';
import { chargesOf, draftLines, ItemInput, LineDraft, priceLines, totalsColumns } from './lines';
import { auditOrder, lockForChange, publishOrderEvent, resolveCustomer, resolveProducts, resolveSeller } from './shared';

export interface PatchInput {
  version: number;
  customerId?: number | null;
  sellerId?: number | null;
  alias?: string | null;
  notes?: string | null;
  paymentTerms?: PaymentTerms | null;
  boletoBankAccountId?: number | null;
  discount?: Dec;
  freight?: Dec;
  insurance?: Dec;
  otherExpenses?: Dec;
  finalConsumer?: boolean | null;
  validUntil?: string | null;
  items?: (ItemInput & { salesOrderItemId?: number })[];
}

const lineSummary = (i: Pick<SalesOrderItem, 'productId' | 'quantity' | 'unitPrice' | 'discount'>) =>
  `${encodeId('product', i.productId)} ${i.quantity.toFixed(4)} × ${i.unitPrice.toFixed(10)} − ${i.discount.toFixed(2)}`;

/** Rewrites the lines of an order: kept lines are updated in place (same id), new ones inserted, the rest removed. */
async function replaceLines(
  em: EntityManager,
  order: SalesOrder,
  current: SalesOrderItem[],
  rows: ReturnType<typeof priceLines>['rows'],
): Promise<void> {
  const keptIds = new Set(rows.map((r) => r.keepId).filter((id): id is number => id !== undefined));
  const removed = current.filter((i) => !keptIds.has(i.id)).map((i) => i.id);
  if (removed.length)
    await em
      .createQueryBuilder()
      .delete()
      .from(SalesOrderItem)
      .where('company_id = :c AND id IN (:...removed)', { c: order.companyId, removed })
      .execute();
  for (const { keepId, ...row } of rows) {
    if (keepId !== undefined)
      await em.update(SalesOrderItem, { id: keepId, companyId: order.companyId }, { ...row, salesOrderId: order.id });
  }
  const added = rows.filter((r) => r.keepId === undefined).map(({ keepId: _k, ...row }) => ({ ...row, salesOrderId: order.id }));
  // Ids taken before the INSERT, as for every line (core/sequence/ids.ts).
  if (added.length) {
    const ids = await allocateIds(em, SalesOrderItem, added.length);
    await insertChunked(
      em,
      SalesOrderItem,
      added.map((row, i) => ({ ...row, id: ids[i] })),
    );
  }
}

/** PATCH: only OPEN orders/quotes with nothing fulfilled, at the version the client read. */
export async function patchOrder(ctx: TenantContext, id: number, input: PatchInput): Promise<SalesOrderView> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    if (order.version !== input.version) throw new StaleVersionError('Sales order', order.version);
    const items = await lockItems(em, ctx.companyId, order.id);
    assertAllowed(order, 'edit', anythingFulfilled(items));
    if (input.validUntil !== undefined && order.type !== 'QUOTE') {
      throw new BusinessRuleError('VALID_UNTIL_QUOTES_ONLY', 'validUntil applies to quotes only', {
        errors: [{ path: 'validUntil', message: 'not allowed on an ORDER' }],
      });
    }
    if (input.customerId) await resolveCustomer(em, ctx.companyId, input.customerId);
    if (input.sellerId) await resolveSeller(em, ctx.companyId, input.sellerId);

    const set: Partial<SalesOrder> = {};
    if (input.customerId !== undefined) set.customerId = input.customerId;
    if (input.sellerId !== undefined) set.sellerId = input.sellerId;
    if (input.alias !== undefined) {
      set.alias = blankToNull(input.alias);
      set.searchAlias = set.alias ? normalizeText(set.alias) || null : null;
    }
    if (input.notes !== undefined) set.notes = blankToNull(input.notes);
    if (input.paymentTerms !== undefined) set.paymentTerms = paymentTermsColumn(input.paymentTerms);
    if (input.boletoBankAccountId !== undefined) set.boletoBankAccountId = input.boletoBankAccountId;
    // Boleto on billing: the account (new or kept) is checked against the order's filial and its customer (new or kept).
    const boletoAccount = input.boletoBankAccountId !== undefined ? input.boletoBankAccountId : order.boletoBankAccountId;
    if (boletoAccount !== null && (input.boletoBankAccountId !== undefined || input.customerId !== undefined)) {
      await assertBoletoTerms(em, ctx, {
        bankAccountId: boletoAccount,
        filialId: order.filialId,
        customerId: input.customerId !== undefined ? input.customerId : order.customerId,
      });
    }
    if (input.validUntil !== undefined) set.validUntil = quoteValidity(input.validUntil);
    if (input.finalConsumer !== undefined) set.finalConsumer = input.finalConsumer;

    const changes: Changes = diff(
      order as never,
      set,
      ['customerId', 'sellerId', 'alias', 'notes', 'paymentTerms', 'boletoBankAccountId', 'validUntil', 'finalConsumer'].filter(
        (f) => f in set,
      ),
    );
    // The trail shows public ids, like every other output.
    if (changes.customerId)
      changes.customerId = changes.customerId.map((v) => encodeOptionalId('customer', v as number | null)) as [unknown, unknown];
    if (changes.boletoBankAccountId)
      changes.boletoBankAccountId = changes.boletoBankAccountId.map((v) => encodeOptionalId('bank-account', v as number | null)) as [
        unknown,
        unknown,
      ];
    if (changes.sellerId)
      changes.sellerId = changes.sellerId.map((v) => encodeOptionalId('seller', v as number | null)) as [unknown, unknown];
    if (
      input.items ||
      input.discount !== undefined ||
      input.freight !== undefined ||
      input.insurance !== undefined ||
      input.otherExpenses !== undefined
    ) {
      let drafts: LineDraft[];
      if (input.items) {
        const byId = new Map(items.map((i) => [i.id, i]));
        const foreign = input.items
          .map((it, i) =>
            it.salesOrderItemId !== undefined && !byId.has(it.salesOrderItemId)
              ? { path: `items[${i}].salesOrderItemId`, message: 'not an item of this sales order' }
              : null,
          )
          .filter((e) => e !== null);
        if (foreign.length)
          throw new BusinessRuleError('ITEM_NOT_IN_ORDER', 'An item does not belong to this sales order', { errors: foreign });
        drafts = draftLines(
          input.items,
          await resolveProducts(
            em,
            ctx.companyId,
            input.items.map((i) => i.productId),
            (i) => `items[${i}].productId`,
          ),
          byId,
        );
      } else {
        drafts = items.map((i) => ({
          productId: i.productId,
          description: i.description,
          unit: i.unit,
          quantity: i.quantity,
          unitPrice: i.unitPrice,
          discount: i.discount,
          origins: i.origins,
          keepId: i.id,
        }));
      }
      const { rows, totals } = priceLines(ctx.companyId, order.id, drafts, input.discount ?? order.discount, chargesOf(order, input));
      await replaceLines(em, order, items, rows);
      Object.assign(set, totalsColumns(totals));
      Object.assign(changes, diff(order as never, totalsColumns(totals)));
      const before = items.map(lineSummary);
      const after = rows.map((r) => lineSummary(r as SalesOrderItem));
      if (JSON.stringify(before) !== JSON.stringify(after)) changes.items = [before, after];
    }
    if (!Object.keys(changes).length) return;
    await deferOrderUpdateIf(em, order, { status: order.status, version: order.version }, set);
    await auditOrder(em, ctx, order, 'UPDATED', changes);
    await publishOrderEvent(em, ctx, Object.assign(order, set), 'updated', { changed: Object.keys(changes) });
  });
  return loadView(readerOf(ctx), ctx.companyId, id);
}

/** DELETE: only OPEN orders and quotes with nothing fulfilled; an order others were grouped into stays (cancel it instead). */
export async function deleteOrder(ctx: TenantContext, id: number): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    const items = await lockItems(em, ctx.companyId, order.id);
    assertAllowed(order, 'delete', anythingFulfilled(items));
    if (await em.existsBy(SalesOrder, { companyId: ctx.companyId, groupedIntoId: order.id })) {
      throw new ConflictError(
        'SALES_ORDER_HAS_GROUPED_SOURCES',
        'Other orders were grouped into this one; cancel it instead of deleting it',
        { currentStatus: order.status },
      );
    }
    const res = await em
      .createQueryBuilder()
      .delete()
      .from(SalesOrder)
      .where('id = :id AND company_id = :c AND status = :status AND version = :version', {
        id: order.id,
        c: ctx.companyId,
        status: order.status,
        version: order.version,
      })
      .execute();
    if (!res.affected) throw new ConflictError('CONCURRENT_UPDATE', 'Sales order was changed by someone else; reload and retry');
    await em
      .createQueryBuilder()
      .delete()
      .from(SalesOrderItem)
      .where('company_id = :c AND sales_order_id = :id', { c: ctx.companyId, id: order.id })
      .execute();
    await auditOrder(em, ctx, order, 'DELETED', { status: [order.status, null] });
    await publishOrderEvent(em, ctx, order, 'deleted');
  });
}

/** assign-customer: any time the order is not CANCELLED or GROUPED (e.g. a quick sale made to the counter customer). */
export async function assignCustomer(ctx: TenantContext, id: number, customerId: number): Promise<SalesOrderView> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    assertAllowed(order, 'assign-customer');
    await resolveCustomer(em, ctx.companyId, customerId);
    if (order.customerId === customerId) return;
    // An order still to be billed with boletos needs a payer with CPF/CNPJ (422 PAYER_DOCUMENT_MISSING).
    if (order.boletoBankAccountId && (order.status === 'OPEN' || order.status === 'PARTIALLY_FULFILLED')) {
      await assertBoletoTerms(em, ctx, { bankAccountId: order.boletoBankAccountId, filialId: order.filialId, customerId });
    }
    const previous = order.customerId;
    await deferOrderUpdateIf(em, order, { status: order.status, version: order.version }, { customerId });
    order.customerId = customerId;
    await auditOrder(em, ctx, order, 'CUSTOMER_ASSIGNED', {
      customerId: [encodeOptionalId('customer', previous), encodeId('customer', customerId)],
    });
    await publishOrderEvent(em, ctx, order, 'customer-assigned', { previousCustomerId: encodeOptionalId('customer', previous) });
  });
  return loadView(readerOf(ctx), ctx.companyId, id);
}

/** QUOTE (OPEN, not expired) → ORDER: same id, code and items. */
export async function convertQuote(ctx: TenantContext, id: number): Promise<SalesOrderView> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    assertAllowed(order, 'convert-quote');
    if (isExpired(order)) {
      throw new BusinessRuleError('QUOTE_EXPIRED', `The quote expired (valid until ${order.validUntil})`, { validUntil: order.validUntil });
    }
    await deferOrderUpdateIf(em, order, { status: 'OPEN', version: order.version, type: 'QUOTE' }, { type: 'ORDER', validUntil: null });
    const changes: Changes = { type: ['QUOTE', 'ORDER'], validUntil: [order.validUntil, null] };
    Object.assign(order, { type: 'ORDER', validUntil: null });
    await auditOrder(em, ctx, order, 'CONVERTED_TO_ORDER', changes);
    await publishOrderEvent(em, ctx, order, 'quote-converted');
  });
  return loadView(readerOf(ctx), ctx.companyId, id);
}

/** ORDER (OPEN, nothing fulfilled) → QUOTE, valid until the given day (default 30 days). */
export async function convertOrderToQuote(ctx: TenantContext, id: number, validUntil?: string): Promise<SalesOrderView> {
  await inTransaction(ctx, async (em) => {
    const { order } = await lockForChange(em, ctx, id);
    const items = await lockItems(em, ctx.companyId, order.id);
    assertAllowed(order, 'convert-order-to-quote', anythingFulfilled(items));
    const until = quoteValidity(validUntil);
    await deferOrderUpdateIf(em, order, { status: 'OPEN', version: order.version, type: 'ORDER' }, { type: 'QUOTE', validUntil: until });
    Object.assign(order, { type: 'QUOTE', validUntil: until });
    await auditOrder(em, ctx, order, 'CONVERTED_TO_QUOTE', { type: ['ORDER', 'QUOTE'], validUntil: [null, until] });
    await publishOrderEvent(em, ctx, order, 'converted-to-quote', { validUntil: until });
  });
  return loadView(readerOf(ctx), ctx.companyId, id);
}
