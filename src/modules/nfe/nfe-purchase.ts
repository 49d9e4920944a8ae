import { EntityManager } from 'typeorm';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import type { ComputedItem } from '../entry-document/entry-document.calculator';
import type { DraftInput } from '../entry-document/entry-document.types';
import { purchaseMatch } from '../entry-document/purchase-link';
import { linkReceiptLines, openOrdersOfSupplier } from '../purchase/receiving.service';
import type { ItemResolution } from './nfe-draft';
import type { ParsedNfe } from './xml/nfe-types';

/*
 * An imported NF-e and the purchase orders (SPEC §9): its lines are linked to order lines (xPed +
 * nItemPed, else the supplier's oldest open line of the same product; the rules are the purchase
 * module's), and preview-import shows the three-way match and the supplier's open orders.
 */

/** Sets `purchaseOrderItemId` on the draft's items and records on each resolution how it was linked. */
export async function linkToPurchaseOrders(em: EntityManager, ctx: ActorContext, filialId: number, nfe: ParsedNfe, draft: DraftInput, resolutions: ItemResolution[]): Promise<void> {
  const supplierDocument = normalizeDocument(nfe.issuer.document ?? '');
  if (!supplierDocument) return;
  const links = await linkReceiptLines(
    em,
    ctx,
    { filialId, supplierDocument },
    draft.items.map((it, i) => ({
      productId: it.productId ?? null,
      quantity: it.quantity,
      conversionFactor: it.conversionFactor ?? new Dec(1),
      orderCode: nfe.items[i].purchaseOrder,
      orderLine: nfe.items[i].purchaseOrderLine,
      ignored: !!it.ignored,
    })),
  );
  links.forEach((link, i) => {
    draft.items[i].purchaseOrderItemId = link.purchaseOrderItemId;
    resolutions[i].purchaseOrderLink = link;
  });
}

/** preview-import: the match of the linked lines and the supplier's open orders of the invoice's products. */
export async function purchaseOrdersOfPreview(em: EntityManager, ctx: ActorContext, filialId: number, nfe: ParsedNfe, items: ComputedItem[]) {
  const supplierDocument = normalizeDocument(nfe.issuer.document ?? '');
  if (!supplierDocument) return { match: null, openOrders: [] };
  const owner = { filialId, supplierDocument };
  const match = await purchaseMatch(em, ctx, owner, items);
  const productIds = items.map((i) => i.productId).filter((p): p is number => p !== null);
  return { match: match?.view ?? null, openOrders: await openOrdersOfSupplier(em, ctx, owner, productIds) };
}
