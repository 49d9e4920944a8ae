/*
 * The entry-document module's front door (SPEC §5-§8): drafts from an imported NF-e, the access check,
 * the freight (CT-e) posting, the supplier-return source lines, the ports it declares and the rows and
 * types other modules read. Everything else in src/modules/entry-document is private
 * (docs/architecture.md, "Module seams").
 */
export { createEntryDocumentDraft, prepareDraft, resolveSupplier } from './create-draft';
export type { PreparedDraft, SupplierSnapshot } from './create-draft';
export { documentsOfKeys, findEntryDocument, freightTarget, pisCofinsCredit, postFreight, previewFreight } from './cte-freight';
export type { FreightLine, FreightLineOutcome, LineShare } from './cte-freight';
export { EntryDocumentItem } from './entities/entry-document-item.entity';
export type { ReformTaxBlock, ReformTaxValue } from './entities/entry-document-item.entity';
export { EntryDocument } from './entities/entry-document.entity';
export type { EntryDocumentOrigin } from './entities/entry-document.entity';
export { assertDocumentAccess, documentByAccessKey, findAccessibleDocument } from './entry-document.access';
export { reformFieldScale, toEntryDocumentSummaryDto, toPreparedDraftDto } from './entry-document.mapper';
export { fixedAssetCredits, inboundNfe, supplierReturnsOfDocument } from './entry-document.ports';
export type { FixedAssetCredits, FixedAssetEntry, FixedAssetLine, InboundNfeLink } from './entry-document.ports';
export { entryDocumentRoutes } from './entry-document.router';
export { flagIssuerCancellation } from './entry-document.service';
export { canDo } from './entry-document.state';
export type { Check, DraftInput, ItemInput, TaxInput } from './entry-document.types';
export { NFE_PURPOSES } from './fiscal/fiscal.types';
export type { NfePurpose, OperationClass } from './fiscal/fiscal.types';
export { notReceivedReason, purchaseMatch } from './purchase-link';
export { supplierReturnSource } from './supplier-return-source';
export type { ReturnSourceLine } from './supplier-return-source';
export { purchaseHistoryProvider } from './purchase-history';
export { lastStEntries } from './retained-st';
export type { RetainedStEntry } from './retained-st';
export { bookedEntriesOfPeriod } from './period-documents';
export type { BookedEntryOfPeriod } from './period-documents';
