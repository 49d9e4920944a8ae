import type { TenantContext } from '../../core/context';
import { definePort } from '../../core/port';

/*
 * What payables need from entry documents, which depend on them (a confirm creates the payables): a
 * port (core/port.ts) that entry-document provides, plugged in by src/modules/index.ts. Payables never
 * import entry-document.
 */

/**
 * Resolves when the entry document is the caller's company's (else 404 ENTRY_DOCUMENT_NOT_FOUND, an
 * unknown id or another tenant's alike) in a filial the token grants (else 403).
 */
export type EntryDocumentAccess = (ctx: TenantContext, entryDocumentId: number) => Promise<void>;

export const entryDocumentAccess = definePort<EntryDocumentAccess>('payables → entry-document access');
