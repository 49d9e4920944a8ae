/*
 * The receivables module's front door (SPEC §13): what other modules call. Billing modules create
 * receivables in their own transaction (sales-order's fulfilment, quick-sale's counter sale), the NF-e
 * emission attaches or cancels them, returns credit them. Keep these signatures stable
 * (docs/decisions.md "Receivables: the module's front door").
 */
export { attachFiscalDocument, billFulfillment, billSale, cancelForFiscalDocument, fulfillmentInstallments } from './billing.service';
export type { FulfillmentBilling, SaleBilling } from './billing.service';
export { creditReturn } from './credits.service';
export type { ReturnCredit, ReturnCreditOutcome } from './credits.service';
