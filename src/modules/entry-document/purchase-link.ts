import { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import { assertLinkableOrderLines, MatchFinding, ReceiptDocument, ReceiptLine, threeWayMatch } from '../purchase/receiving.service';
import type { DocumentState } from './document-state';
import type { ComputedItem } from './entry-document.calculator';
import type { EntryDocumentItem } from './entities/entry-document-item.entity';

/*
 * The entry document's side of purchase orders (SPEC §9): its lines as the purchase module reads
 * them, the check of the order lines they link, and the three-way match of a draft. The rules live
 * in the purchase module (src/modules/purchase/receiving.service.ts).
 */

export interface LinkOwner {
  filialId: number;
  supplierDocument: string;
}

/** The lines as the match reads them (stored items carry their id; computed ones do not). */
export const receiptLines = (items: (ComputedItem & { id?: number })[]): ReceiptLine[] =>
  items.map((it) => ({
    lineNumber: it.lineNumber,
    entryDocumentItemId: it.id ?? null,
    purchaseOrderItemId: it.purchaseOrderItemId,
    productId: it.productId,
    ignored: it.reviewStatus === 'IGNORED',
    quantity: it.quantity,
    unit: it.unit,
    conversionFactor: it.conversionFactor,
    stockQuantity: it.stockQuantity,
    total: it.total,
    discount: it.discount,
  }));

/** A stored document as confirmation receives it (the stored item ids, the recomputed values). */
export function receiptDocument(state: DocumentState): ReceiptDocument {
  const { doc, items, computed } = state;
  return {
    entryDocumentId: doc.id,
    filialId: doc.filialId,
    supplierDocument: doc.supplierDocument,
    number: doc.number,
    series: doc.series,
    accessKey: doc.accessKey,
    issueDate: doc.issueDate,
    entryDate: doc.entryDate,
    lines: receiptLines(computed.items.map((it, i) => ({ ...it, id: items[i].id }))),
  };
}

/**
 * Checks the order lines the items link (404 unknown, 422 not linkable). With `before`, only the
 * lines whose link or product changed are checked: a stale link that a PATCH of other fields leaves
 * alone is reported by the match instead, not refused.
 */
export async function checkOrderLinks(em: EntityManager, ctx: Pick<ActorContext, 'companyId'>, owner: LinkOwner, items: ComputedItem[], before?: EntryDocumentItem[]): Promise<void> {
  const stored = new Map((before ?? []).map((b) => [b.lineNumber, b]));
  const links = items.flatMap((it, i) => {
    if (it.purchaseOrderItemId === null) return [];
    const old = stored.get(it.lineNumber);
    if (before && old && old.purchaseOrderItemId === it.purchaseOrderItemId && old.productId === it.productId) return [];
    return [{ path: `items[${i}].purchaseOrderItemId`, purchaseOrderItemId: it.purchaseOrderItemId, productId: it.productId }];
  });
  await assertLinkableOrderLines(em, ctx, links, owner);
}

/** The three-way match of a draft's lines (null when none is linked). */
export const purchaseMatch = (em: EntityManager, ctx: Pick<ActorContext, 'companyId'>, owner: LinkOwner, items: ComputedItem[]) =>
  threeWayMatch(em, ctx, { filialId: owner.filialId, supplierDocument: owner.supplierDocument, lines: receiptLines(items) });

export type { MatchFinding };
