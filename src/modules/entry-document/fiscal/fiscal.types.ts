import type { TaxRegime } from '../../tenancy';

/** How an inbound invoice line is booked (SPEC §2): what confirm posts follows from it. */
export const OPERATION_CLASSES = [
  'PURCHASE_RESALE',
  'PURCHASE_INPUT',
  'PURCHASE_USE_CONSUMPTION',
  'PURCHASE_FIXED_ASSET',
  'BONUS',
  'THIRD_PARTY_INBOUND',
  'RETURN_OF_OURS',
  'CUSTOMER_RETURN',
  'TRANSFER',
  'IMPORT',
  'VALUE_ADJUSTMENT',
] as const;
export type OperationClass = (typeof OPERATION_CLASSES)[number];

/** finNFe: 1 normal, 2 complementary, 3 adjustment, 4 return, 5 credit note, 6 debit note (NT 2025.002). */
export const NFE_PURPOSES = ['1', '2', '3', '4', '5', '6'] as const;
export type NfePurpose = (typeof NFE_PURPOSES)[number];

/** Where a line's goods go on confirmation. */
export type StockTarget = 'OWN' | 'THIRD_PARTY' | 'NONE';

/**
 * Where a line's entry CFOP came from: chosen on the draft, a company rule, the default table, the
 * invoice itself (a CFOP that already is an entry CFOP: the company's own entry note, e.g. an import),
 * or nowhere (no rule knows the issuer's CFOP, or the line has none).
 */
export const ENTRY_CFOP_SOURCES = ['MANUAL', 'COMPANY_RULE', 'DEFAULT', 'DECLARED', 'NONE'] as const;
export type EntryCfopSource = (typeof ENTRY_CFOP_SOURCES)[number];

/**
 * Where a line's operation class came from: finNFe (2–6 fix it), chosen on the draft, the company rule
 * that gave the entry CFOP, the entry CFOP's nature, the purchase-for-resale default of a line without
 * any CFOP, or nowhere (the entry CFOP names no operation, e.g. x949).
 */
export const OPERATION_CLASS_SOURCES = ['PURPOSE', 'MANUAL', 'COMPANY_RULE', 'CFOP', 'NO_CFOP', 'NONE'] as const;
export type OperationClassSource = (typeof OPERATION_CLASS_SOURCES)[number];

export type { TaxRegime };

/** A company's rule: the issuer's CFOP (optionally only for an NCM prefix or one product) → the entry CFOP. */
export interface CfopRule {
  id: number;
  issuerCfop: string;
  /** 2 to 8 digits: an NCM prefix (a chapter, a heading, or the full code). */
  ncm: string | null;
  productId: number | null;
  entryCfop: string;
  /** Only for entry CFOPs that name no operation by themselves (x949) or to book a CFOP differently. */
  operationClass: OperationClass | null;
}

/** The fiscal context a document is computed in. */
export interface FiscalContext {
  taxRegime: TaxRegime;
  rules: CfopRule[];
  /** The filial's CNPJ: a transfer must come from a filial of the same company (same CNPJ root). */
  filialDocument?: string | null;
  /** The CNPJs of every filial of the company (a transfer may come from any of them). */
  companyDocuments?: string[];
}

/** A line's resolved booking. */
export interface LineFiscal {
  entryCfop: string | null;
  entryCfopSource: EntryCfopSource;
  operationClass: OperationClass | null;
  operationClassSource: OperationClassSource;
  /** The company rule applied, if any. */
  ruleId: number | null;
}

export type CreditTax = 'ICMS' | 'PIS' | 'COFINS' | 'IPI' | 'CBS' | 'IBS';
export const CREDIT_TAXES: CreditTax[] = ['ICMS', 'PIS', 'COFINS', 'IPI', 'CBS', 'IBS'];
