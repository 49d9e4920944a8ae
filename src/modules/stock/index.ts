/*
 * The stock module's front door: the stock ledger (postings, value adjustments, previews, the posting
 * lock) and third-party stock, with the rows other modules join to. Everything else in
 * src/modules/stock is private (docs/architecture.md, "Module seams").
 */
export { StockBalance } from './entities/stock-balance.entity';
export { StockMovement } from './entities/stock-movement.entity';
export { ThirdPartyStockBalance } from './entities/third-party-stock-balance.entity';
export {
  lockAheadForPosting,
  lockForPosting,
  postToLedger,
  postValueAdjustment,
  previewPosting,
  previewValuePosting,
} from './stock-ledger.service';
export type { LedgerEffect, LedgerLine, LedgerPosting, ValueEffect, ValuePosting } from './stock-ledger.service';
export { listThirdPartyStock, postThirdPartyStock, previewThirdPartyPosting, thirdPartyMovementsOf } from './third-party-stock.service';
export type { ThirdPartyEffect, ThirdPartyLine, ThirdPartyPosting, ThirdPartyStockQuery } from './third-party-stock.service';
