/*
 * The fiscal-periods module's front door: the period check every module that changes something dated
 * in a month calls inside its transaction (assertPeriodOpen → 409 FISCAL_PERIOD_CLOSED), the port the
 * accountant package provides (the documents still inside a legal window), the period range helper,
 * and the routes for the composition root (src/modules/index.ts).
 */
export { assertPeriodOpen, closedPeriods, periodOf } from './period-guard';
export { periodDocuments } from './fiscal-periods.ports';
export type { PendingDocument, PendingKind, PeriodDocuments, PeriodRange } from './fiscal-periods.ports';
export { periodRange } from './fiscal-periods.service';
export { FiscalPeriod } from './entities/fiscal-period.entity';
export type { FiscalPeriodStatus } from './entities/fiscal-period.entity';
export { fiscalPeriodRoutes } from './fiscal-periods.router';
