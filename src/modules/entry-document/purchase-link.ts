import { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import { assertLinkableOrderLines, MatchFinding, ReceiptDocument, ReceiptLine, threeWayMatch } from '../purchase';
import type { Product } from '../catalog';
import type { DocumentState } from './document-state';
import type { ComputedItem } from './entry-document.calculator';
import type { EntryDocumentItem } from './entities/entry-document-item.entity';
import { lineStockTarget } from './fiscal/booking';

/*
 * The entry document's side of purchase orders (SPEC §9): its lines as the purchase module reads
 * them, the check of the order lines they link, and the three-way match of a draft. The rules live
 * in the purchase module (src/modules/purchase/receiving.service.ts).
 */

export interface LinkOwner {
  filialId: number;
  supplierDocument: string;
}

/**
 * Why a reviewed line receives nothing on a purchase order (null: it receives). Only what confirm
 * posts to own stock as bought is a receipt: third-party goods (remessas) are not ours, and a
 * bonificação is goods given free, not the goods ordered — counting it would use up the quantity the
 * invoiced goods still owe. Unreviewed lines and zero quantities are the match's own cases.
 */
export function notReceivedReason(it: ComputedItem, product: Product | undefined): string | null {
  if (it.reviewStatus !== 'MATCHED' || !product || !it.stockQuantity.gt(0)) return null;
  if (it.operationClass === 'BONUS') return 'a bonificação (goods given free) is not a receipt of the goods ordered';
  if (it.operationClass === 'TRANSFER') return 'a transfer from a filial of the company is not a receipt of goods ordered from a supplier';
  const { stock, note } = lineStockTarget(it, product);
  if (stock === 'OWN') return null;
  if (note) return note;
  return it.operationClass ? `a line booked as ${it.operationClass} posts no own stock` : 'the operation class is undetermined';
}

/** The lines as the match reads them (stored items carry their id; computed ones do not). */
export const receiptLines = (items: (ComputedItem & { id?: number })[], products: Map<number, Product>): ReceiptLine[] =>
  items.map((it) => ({
    lineNumber: it.lineNumber,
    entryDocumentItemId: it.id ?? null,
    purchaseOrderItemId: it.purchaseOrderItemId,
    productId: it.productId,
    ignored: it.reviewStatus === 'IGNORED',
    notReceived: notReceivedReason(it, it.productId === null ? undefined : products.get(it.productId)),
    quantity: it.quantity,
    unit: it.unit,
    conversionFactor: it.conversionFactor,
    stockQuantity: it.stockQuantity,
    total: it.total,
    discount: it.discount,
  }));

/** A stored document as confirmation receives it (the stored item ids, the recomputed values). */
export function receiptDocument(state: DocumentState): ReceiptDocument {
  const { doc, items, computed, products } = state;
  return {
    entryDocumentId: doc.id,
    filialId: doc.filialId,
    supplierDocument: doc.supplierDocument,
    number: doc.number,
    series: doc.series,
    accessKey: doc.accessKey,
    issueDate: doc.issueDate,
    entryDate: doc.entryDate,
    lines: receiptLines(
      computed.items.map((it, i) => ({ ...it, id: items[i].id })),
      products,
    ),
  };
}

/**
 * Checks the order lines the items link (404 unknown, 422 not linkable). With `before`, only the
 * lines whose link or product changed are checked: a stale link that a PATCH of other fields leaves
 * alone is reported by the match instead, not refused. `pathOf` names a line's link in the request
 * (`items[i]` of a PATCH, `lines[j]` of a line review).
 */
export async function checkOrderLinks(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  owner: LinkOwner,
  items: ComputedItem[],
  before?: EntryDocumentItem[],
  pathOf: (index: number) => string = (i) => `items[${i}]`,
): Promise<void> {
  const stored = new Map((before ?? []).map((b) => [b.lineNumber, b]));
  const links = items.flatMap((it, i) => {
    if (it.purchaseOrderItemId === null) return [];
    const old = stored.get(it.lineNumber);
    if (before && old && old.purchaseOrderItemId === it.purchaseOrderItemId && old.productId === it.productId) return [];
    return [{ path: `${pathOf(i)}.purchaseOrderItemId`, purchaseOrderItemId: it.purchaseOrderItemId, productId: it.productId }];
  });
  await assertLinkableOrderLines(em, ctx, links, owner);
}

/** The three-way match of a draft's lines (null when none is linked). */
export const purchaseMatch = (
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  owner: LinkOwner,
  items: ComputedItem[],
  products: Map<number, Product>,
) => threeWayMatch(em, ctx, { filialId: owner.filialId, supplierDocument: owner.supplierDocument, lines: receiptLines(items, products) });

export type { MatchFinding };
