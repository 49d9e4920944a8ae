/*
 * The receivables module's front door (SPEC §13): what other modules call. Billing modules create
 * receivables in their own transaction (sales-order's fulfilment, quick-sale's counter sale), the NF-e
 * emission attaches or cancels them, returns credit them. Keep these signatures stable
 * (docs/decisions/receivables.md, the module's front door). Its routes are for the composition root
 * (src/modules/index.ts).
 */
export {
  attachFiscalDocument,
  billFulfillment,
  billSale,
  cancelForFiscalDocument,
  customerReceivablesOfBillings,
  fulfillmentInstallments,
  openCustomerReceivablesOfBilling,
} from './billing.service';
export type { CardIdentification, FulfillmentBilling, SaleBilling } from './billing.service';
export { fiscalDocumentInstallments } from './fiscal-billing.service';
export type { FiscalDocumentBilling, FiscalInstallment } from './fiscal-billing.service';
export { creditReturn, refundsOfReturns } from './credits.service';
export type { ReturnRefund } from './credits.service';
export type { ReturnCredit, ReturnCreditOutcome } from './credits.service';
export { findAccessibleReceivable, lockedReceivableBalance, recordReceipt, reverseReceiptIn } from './receipts.service';
export type { RecordReceiptInput } from './receipts.service';
export { Receivable } from './entities/receivable.entity';
/** Whether a charge may be issued for a receivable, and the 409's code when not: the receivables' state table. */
export { canCollect, conflictCode as receivableConflictCode } from './receivables.state';
export type { ReceivableStatus } from './entities/receivable.entity';
export { receivableRoutes } from './receivables.router';
