/*
 * The invoices module's front door (SPEC §12.2, §12.4): what other modules call. A module that owns
 * a source of NF-e (customer returns, supplier returns, transfers) registers a provider
 * (document-sources.ts) and issues through `issueInvoice` / `previewInvoice` with `{ source: { kind, id } }`;
 * it reads our authorized originals with `authorizedInvoices`. See /work/wt/notes/seam.md and
 * docs/decisions/nfe-sources.md.
 */
export { claimOf, EXTERNAL_SOURCE_KINDS, registerDocumentSource, SOURCE_ID_TYPE, sourceIdOf } from './document-sources';
export type { DocumentSourceProvider, ExternalSourceKind, SourceCancellation, SourceDocument, SourceDocumentOutcome } from './document-sources';
export { issueInvoice, previewInvoice, settle } from './issue.service';
export type { InvoicePreview, IssueInput } from './issue.service';
export { authorizedInvoices, invoicesOfSource } from './originals.service';
export type { AuthorizedOriginal, SourceInvoice } from './originals.service';
export type { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';
