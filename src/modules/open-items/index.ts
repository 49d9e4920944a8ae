/*
 * Front door of the open-items kernel (docs/decisions/open-items.md): settling and reversing an item
 * still to pay or receive, for a side that declares itself (OpenItemSide). It knows neither side.
 */
export { OpenItemSettlement } from './entities/settlement.entity';
export type { SettlementStatus } from './entities/settlement.entity';
export { settledStatus } from './open-item.side';
export type { OpenItem, OpenItemSide, OpenItemStatuses } from './open-item.side';
export { settlementsOf } from './open-items.repository';
export { findSettlementOf, lockedItem, openOf, reverseIn, settleIn, writeOpenItem } from './settlement.service';
export type { SettleInput } from './settlement.service';
export { settlementMoney, settlementTotals, settlementTrail } from './open-items.mapper';
export { settlementMoneyKeys, settlementStatus, settlementTotalsSchema, settlementTrailKeys } from './open-items.responses';
export { settlementHandlers } from './open-items.handlers';
export type { SettlementRoutes } from './open-items.handlers';
