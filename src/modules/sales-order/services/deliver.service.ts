import { EntityManager } from 'typeorm';
import type { TenantContext } from '../../../core/context';
import { allocateId } from '../../../core/sequence/ids';
import type { Customer, Product, Seller } from '../../catalog';
import { lockForPosting } from '../../stock';
import { Fulfillment } from '../entities/fulfillment.entity';
import { CreateSalesOrderInput, writeOrder } from './create.service';
import { deliverLines, FulfillOptions, FulfillResult } from './fulfill.service';
import { draftLines, ItemInput } from './lines';
import { resolveCustomer, resolveProducts, resolveSeller } from './shared';

/*
 * An order created and delivered in full in one transaction (the counter sale, SPEC §7), as one
 * operation of this module: the order's reads are issued when it starts, so they share the caller's
 * first round trip, and the rows are written as the delivery leaves them (no UPDATE after the INSERT).
 */

/** What starts a delivered order: its filial, lines, and the customer and seller the request names. */
export interface DeliveredOrderStart {
  filialId: number;
  items: ItemInput[];
  customerId?: number | null;
  sellerId?: number | null;
}

/** The rest of the order, once the caller's own reads are in. */
export interface DeliveredOrderInput extends Omit<
  CreateSalesOrderInput,
  'filialId' | 'items' | 'type' | 'customerId' | 'sellerId' | 'validUntil'
> {
  /**
   * The customer and seller when the start named none: records the caller read in this transaction and
   * checked (a counter's defaults); null for none.
   */
  defaults: { customer: Customer | null; seller: Seller | null };
}

export interface DeliveredOrderOptions extends Pick<FulfillOptions, 'allowNegativeStock' | 'bill'> {
  /**
   * The caller's rules on the priced order, before its goods move (a throw rolls the transaction back:
   * nothing was written yet, every write of the order being deferred).
   */
  check?: (order: FulfillResult['order'], items: FulfillResult['items']) => void;
}

export interface DeliveredOrder extends FulfillResult {
  /** The order's customer and seller (the named ones or the defaults). */
  customer: Customer | null;
  seller: Seller | null;
}

/**
 * Starts an order delivered in full: issues now, in this tick, the read of its products, of the
 * customer and seller the start names, and the lock of the products' existing stock balances (so they
 * travel with the caller's reads of the same tick). `complete` prices and writes the order, runs the
 * caller's check, and delivers every line through the stock ledger.
 */
export function startDeliveredOrder(
  em: EntityManager,
  ctx: TenantContext,
  start: DeliveredOrderStart,
): { complete: (input: DeliveredOrderInput, options?: DeliveredOrderOptions) => Promise<DeliveredOrder> } {
  const productIds = start.items.map((i) => i.productId);
  const products = resolveProducts(em, ctx.companyId, productIds, (i) => `items[${i}].productId`);
  const locked = lockForPosting(em, ctx.companyId, start.filialId, productIds, { existingOnly: true });
  const customer = start.customerId ? resolveCustomer(em, ctx.companyId, start.customerId) : undefined;
  const seller = start.sellerId ? resolveSeller(em, ctx.companyId, start.sellerId) : undefined;
  // Their failures are answered by complete(), in order; the caller may fail before calling it.
  for (const read of [products, locked, customer, seller]) read?.catch(() => undefined);
  return {
    complete: async (input, options = {}) => {
      await locked;
      const found: Map<number, Product> = await products;
      const parties = {
        customer: customer ? await customer : input.defaults.customer,
        seller: seller ? await seller : input.defaults.seller,
      };
      const fulfillment = Object.assign(new Fulfillment(), {
        id: await allocateId(em, Fulfillment),
        companyId: ctx.companyId,
        filialId: start.filialId,
        actor: ctx.actor,
        createdAt: new Date(),
      });
      const { order, items } = await writeOrder(
        em,
        ctx,
        {
          ...input,
          filialId: start.filialId,
          items: start.items,
          type: 'ORDER',
          customerId: parties.customer?.id ?? null,
          sellerId: parties.seller?.id ?? null,
        },
        draftLines(start.items, found),
        fulfillment,
      );
      fulfillment.salesOrderId = order.id;
      options.check?.(order, items);
      const controlled = new Set([...found.values()].filter((p) => p.stockControlled).map((p) => p.id));
      const delivered = await deliverLines(
        em,
        ctx,
        { order, items, controlled, writtenDelivered: fulfillment },
        items.map((i) => ({ salesOrderItemId: i.id, quantity: i.quantity })),
        { allowNegativeStock: options.allowNegativeStock, bill: options.bill },
      );
      return { ...delivered, ...parties };
    },
  };
}
