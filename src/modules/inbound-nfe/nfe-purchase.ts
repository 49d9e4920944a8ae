import { EntityManager } from 'typeorm';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import type { PreparedDraft } from '../entry-document';
import { notReceivedReason, purchaseMatch } from '../entry-document';
import { linkReceiptLines, openOrdersOfSupplier } from '../purchase';
import type { ItemResolution } from './nfe-draft';
import type { ParsedNfe } from '../fiscal-xml';

/*
 * An imported NF-e and the purchase orders (SPEC §9): its lines are linked to order lines (xPed +
 * nItemPed, else the supplier's oldest open line of the same product; the rules are the purchase
 * module's), and preview-import shows the three-way match and the supplier's open orders. Linking
 * reads the prepared draft: only lines that would receive (booked into own stock as bought) are linked.
 */

/** Sets `purchaseOrderItemId` on the prepared draft's lines and records on each resolution how it was linked. */
export async function linkToPurchaseOrders(
  em: EntityManager,
  ctx: ActorContext,
  filialId: number,
  nfe: ParsedNfe,
  prepared: PreparedDraft,
  resolutions: ItemResolution[],
): Promise<void> {
  const supplierDocument = normalizeDocument(nfe.issuer.document ?? '');
  if (!supplierDocument) return;
  const { computed, products } = prepared;
  const links = await linkReceiptLines(
    em,
    ctx,
    { filialId, supplierDocument },
    computed.items.map((it, i) => ({
      productId: it.productId,
      quantity: it.quantity,
      conversionFactor: it.conversionFactor,
      orderCode: nfe.items[i].purchaseOrder,
      orderLine: nfe.items[i].purchaseOrderLine,
      receivesNothing:
        it.reviewStatus === 'IGNORED' || notReceivedReason(it, it.productId === null ? undefined : products.get(it.productId)) !== null,
    })),
  );
  links.forEach((link, i) => {
    prepared.input.items[i].purchaseOrderItemId = link.purchaseOrderItemId;
    computed.items[i].purchaseOrderItemId = link.purchaseOrderItemId;
    resolutions[i].purchaseOrderLink = link;
  });
}

/** preview-import: the match of the linked lines and the supplier's open orders of the invoice's products. */
export async function purchaseOrdersOfPreview(
  em: EntityManager,
  ctx: ActorContext,
  filialId: number,
  nfe: ParsedNfe,
  prepared: PreparedDraft,
) {
  const supplierDocument = normalizeDocument(nfe.issuer.document ?? '');
  if (!supplierDocument) return { match: null, openOrders: [] };
  const owner = { filialId, supplierDocument };
  const { items } = prepared.computed;
  const match = await purchaseMatch(em, ctx, owner, items, prepared.products);
  const productIds = items.map((i) => i.productId).filter((p): p is number => p !== null);
  return { match: match?.view ?? null, openOrders: await openOrdersOfSupplier(em, ctx, owner, productIds) };
}
