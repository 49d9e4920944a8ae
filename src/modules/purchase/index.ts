/*
 * The purchase module's front door: receiving against purchase orders (three-way match, receipts,
 * returns to the supplier) for the documents that book them. Everything else in src/modules/purchase
 * is private (docs/architecture.md, "Module seams").
 */
export { purchaseRoutes } from './purchase.router';
export {
  applyReceipts,
  applySupplierReturn,
  assertLinkableOrderLines,
  linkReceiptLines,
  openOrdersOfSupplier,
  revertReceipts,
  threeWayMatch,
} from './receiving.service';
export type { MatchFinding, ReceiptDocument, ReceiptLine } from './receiving.service';
