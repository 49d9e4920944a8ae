/*
 * The invoices module's front door (SPEC §12.2, §12.4): what other modules call. A module that owns
 * a source of NF-e (customer returns, supplier returns, transfers) registers a provider
 * (document-sources.ts) and issues through `issueInvoice` / `previewInvoice` with `{ source: { kind, id } }`;
 * it reads our authorized originals with `authorizedInvoices`. See docs/architecture.md ("The fiscal wing") and
 * docs/decisions/nfe-sources.md. The NFC-e module issues with the same pieces: the layout builder
 * (xml/nfe-xml.ts), the signer, the series and their numbers, the authority client and the stored
 * XML's compression. Its routes are for the composition root (src/modules/index.ts).
 */
export { claimOf, EXTERNAL_SOURCE_KINDS, registerDocumentSource, SOURCE_ID_TYPE, sourceIdOf } from './document-sources';
export type {
  DocumentSourceProvider,
  ExternalSourceKind,
  SourceCancellation,
  SourceDocument,
  SourceDocumentOutcome,
} from './document-sources';
export { issueInvoice, previewInvoice, settle } from './issue.service';
export type { InvoicePreview, IssueInput } from './issue.service';
export { authorizedInvoices, invoicesOfSource, pendingInvoices } from './originals.service';
export type { AuthorizedOriginal, PendingOriginal, SourceInvoice } from './originals.service';
export type { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';
// The authority's client and endpoint tables live in the authority module; these names stay here for callers not yet moved.
export { authorizerOf, contingencyOf, AuthorityClient, NoAnswerError } from '../authority';
export type { Authorizer, Contingency, IssuerTarget } from '../authority';
export { issuerTarget } from '../sefaz';
export { InvoiceSeries } from './entities/invoice-series.entity';
export { clientOf, filialSigning, gunzipText, gz } from './invoice-store';
export { CANCELLATION_REGISTERED, registeredEvent, registerIssuerEvent, sendIssuerEvent } from './issuer-event';
export type { RegisteredEvent, SentEvent } from './issuer-event';
export type { FilialSigning } from './invoice-store';
export { requestVoiding, voidingRefused, voidingUnavailable } from './voiding';
export type { VoidingAnswer, VoidingOutcome, VoidingRequest } from './voiding';
export { invoiceRoutes } from './invoices.router';
export { additionalInfoOf } from './issue.service';
export { listSeries, saveSeries, saveSeriesIn, takeNextNumber, takenNumber, takeNumberStatements } from './series.service';
export { brasilia, buildNfeXml, layoutText, VER_PROC } from './xml/nfe-xml';
export type { BuiltNfe, NfeHeader } from './xml/nfe-xml';
export { invoiceRecoveryWorker, registerRecoveryStep } from './recovery';
export { deliverInvoices, invoiceDeliveryWorker } from './delivery.service';
export { counterNotes } from './invoices.ports';
export type { CounterNotes, CounterNumber, CounterNumberFate } from './invoices.ports';
export { invoicesOfOrder } from './order-documents';
export { logoOfCompany } from './logo.service';
export { currentContingency, endContingency, enterContingency } from './contingency.service';
export type { ContingencyState } from './contingency.service';
export { issuedNfeOfPeriod, voidedRangesOfPeriod } from './book-documents';
export type { IssuedNfeOfPeriod, VoidedRangeOfPeriod } from './book-documents';
export { invoicesOfMonth, pendingInvoicesOfMonth } from './period-documents';
export type { MonthInvoice, MonthVoid } from './period-documents';
export { sendCompanyMail } from './email.service';
