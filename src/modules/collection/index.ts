/*
 * The collection module's front door (SPEC §14): bank accounts (and their Pix key/PSP, for Pix
 * charges), the bank rules of boletos, boletos issued in a billing transaction, and its routes for the composition root (src/modules/index.ts).
 * Everything else in src/modules/collection is private (docs/architecture.md, "Module seams").
 */
export { BankAccount } from './entities/bank-account.entity';
export { findAccessibleAccount, findBankAccount } from './bank-accounts.service';
export type { BankAccountView } from './bank-accounts.service';
export { BANK_CODES, BANKS } from './banks/banks';
export type { BankCode, CnabLayout } from './banks/banks';
export { BankAccount as BankAccountResponse, Boleto as BoletoResponse } from './collection.responses';
// Boleto on billing (docs/decisions/collection-boleto.md): sales-order checks its order's account and
// issues the boletos of what it bills in its own transaction, and answers them as GET /collection/boletos/:id does;
// invoices makes them follow the receivables its NF-e re-makes or cancels.
export { assertBoletoTerms, billingSnapshot, issueBoletosOnBilling, realignBoletosOfBilling } from './boletos.service';
export type { BillingSnapshot, BoletoTerms, BoletoView } from './boletos.service';
export { toBoletoDto } from './collection.mapper';
export { collectionRoutes } from './collection.router';
// The CNAB layouts, for the local bank simulator (src/dev/bank-simulator) and tooling.
export { parseRemessa240, parseRetorno240, writeRetorno240 } from './cnab/cnab240';
export { cnabLayout } from './cnab/layouts';
export type { CnabAccount, RetornoOccurrence } from './cnab/cnab240';
export { pixRoutes } from './pix.router';
