import type { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import { definePort } from '../../core/port';
import type { Dec } from '../../core/decimal';
import type { Check } from './entry-document.types';
import type { TaxRegime } from './fiscal/fiscal.types';

/*
 * What entry documents need from the NF-e module, which depends on them (an NF-e import creates a
 * draft): a port (core/port.ts) that nfe provides (inbound-nfe/entry-document-link.ts), plugged in by
 * src/modules/index.ts. Entry documents never import nfe.
 */

/**
 * The inbound NF-e as the document's detail shows it (`EntryDocument.nfe`, schema EntryDocumentNfe in
 * entry-document.responses.ts): nfe's own DTO (nfe.mapper.ts toInboundDto), which the compiler holds
 * to this shape where nfe provides the port. Ids are hashids, times ISO strings.
 */
export interface InboundNfeView {
  readonly id: string;
  readonly filialId: string;
  readonly accessKey: string;
  readonly issuer: { readonly document: string; readonly name: string; readonly uf: string | null };
  readonly model: string;
  readonly series: string | null;
  readonly number: string | null;
  readonly issueDate: string;
  readonly issuedAt: string | null;
  readonly total: number | null;
  readonly nsu: string | null;
  readonly kind: 'SUMMARY' | 'FULL';
  readonly authorityStatus: 'AUTHORIZED' | 'DENIED' | 'CANCELLED';
  readonly environment: 'PRODUCTION' | 'HOMOLOGATION';
  readonly protocol: string | null;
  readonly authorizedAt: string | null;
  readonly manifestation: {
    readonly status: 'NONE' | 'CIENCIA' | 'CONFIRMADA' | 'DESCONHECIDA' | 'NAO_REALIZADA';
    readonly protocol: string | null;
    readonly at: string | null;
  };
  readonly hasXml: boolean;
  readonly source: 'SEFAZ' | 'UPLOAD';
  readonly importStatus: 'PENDING' | 'IMPORTED' | 'IGNORED';
  readonly entryDocumentId: string | null;
  readonly freightCte: { readonly announced: boolean; readonly accessKey: string | null; readonly announcedAt: string | null } | null;
  readonly validation: { readonly valid: boolean; readonly blockingCodes: readonly string[]; readonly warnings: readonly string[] } | null;
  readonly signer: {
    readonly verdict: 'TRUSTED' | 'UNTRUSTED' | 'UNVERIFIABLE';
    readonly reasons: readonly string[];
    readonly signerDocument: string | null;
  } | null;
  readonly authorityCheck: {
    readonly outcome: 'CONFIRMED' | 'NOT_FOUND' | 'CANCELLED' | 'DENIED' | 'DIGEST_MISMATCH';
    readonly cStat: string | null;
    readonly checkedAt: string | null;
  } | null;
  readonly version: number;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

export interface InboundNfeLink {
  /** The filial's inbound NF-e of this access key, as a DTO; null when there is none. */
  inboundOf(em: EntityManager, companyId: number, filialId: number, accessKey: string): Promise<InboundNfeView | null>;
  /**
   * In the transaction that deletes (DELETED) or cancels (CANCELLED) the document: the inbound records
   * imported into it are pending again (importable anew), with their event, audit row and outbox event.
   */
  releaseImported(em: EntityManager, ctx: ActorContext, entryDocumentId: number, cause: 'DELETED' | 'CANCELLED'): Promise<number>;
  /** What the inbound NF-e of the key adds to confirmation: its signer's verdict and, for an upload, the authority's word. */
  confirmationChecks(em: EntityManager, companyId: number, filialId: number, accessKey: string): Promise<Check[]>;
}

export const inboundNfe = definePort<InboundNfeLink>('entry-document → inbound NF-e');

/**
 * What entry documents need from supplier returns, which depend on them: how many returns to the
 * supplier still stand against the document (issued, authorized, or awaiting their number's voiding).
 * A document with any cannot be cancelled — the return's NF-e must be cancelled first, or the
 * document's reversal would take back goods, credits and payables the return already took back.
 */
export interface SupplierReturnsOfDocument {
  liveReturns(em: EntityManager, companyId: number, entryDocumentId: number): Promise<number>;
}

export const supplierReturnsOfDocument = definePort<SupplierReturnsOfDocument>('entry-document → supplier returns');

/** A confirmed document's line booked as a fixed asset (PURCHASE_FIXED_ASSET), with the ICMS it brought in. */
export interface FixedAssetLine {
  itemId: number;
  lineNumber: number;
  description: string;
  ncm: string | null;
  entryCfop: string;
  /** vICMS and vICMSST of the item as the supplier's NF-e declares them. */
  icms: Dec;
  icmsSt: Dec;
}

export interface FixedAssetEntry {
  companyId: number;
  filialId: number;
  entryDocumentId: number;
  documentNumber: string;
  accessKey: string | null;
  supplierDocument: string;
  entryDate: string;
  taxRegime: TaxRegime;
}

/**
 * What entry documents need from the CIAP (the fixed assets' ICMS credit in 48 parts, LC 87/1996 art. 20
 * §5), which reads the fiscal books that read entry documents: a port the ciap module provides. Both run
 * in the confirming or cancelling transaction; they answer how many assets they recorded or cancelled.
 */
export interface FixedAssetCredits {
  recordAssets(em: EntityManager, ctx: ActorContext, entry: FixedAssetEntry, lines: FixedAssetLine[]): Promise<number>;
  cancelAssets(em: EntityManager, ctx: ActorContext, entryDocumentId: number, reason: string | null): Promise<number>;
}

export const fixedAssetCredits = definePort<FixedAssetCredits>('entry-document → CIAP fixed assets');
