import type { Dec } from '../../core/decimal';
import type { ReformTaxBlock } from './entities/entry-document-item.entity';
import type { EntryDocumentOrigin } from './entities/entry-document.entity';
import type { NfePurpose, OperationClass } from './fiscal/fiscal.types';

/** Inputs of drafts, shared by the API (create, PATCH, preview-manual) and the NF-e import. */

export interface TaxInput {
  cst?: string | null;
  base?: Dec | null;
  rate?: Dec | null;
  value?: Dec | null;
  /** ICMS only: the credit a Simples Nacional supplier states (pCredSN, vCredICMSSN; CSOSN 101/201/900). */
  snCreditRate?: Dec | null;
  snCreditValue?: Dec | null;
  /** ICMS-ST only: the FCP-ST inside `value` (vBCFCPST, pFCPST, vFCPST), what a resale with CST 60 / CSOSN 500 declares as retained. */
  fcpBase?: Dec | null;
  fcpRate?: Dec | null;
  fcpValue?: Dec | null;
  /**
   * ICMS of goods bought with CST 60 / CSOSN 500: the ST retained earlier that the supplier's document
   * declares (vBCSTRet, pST, vICMSSubstituto, vICMSSTRet, vBCFCPSTRet, pFCPSTRet, vFCPSTRet); not a charge of this entry.
   */
  retained?: RetainedStInput | null;
}

export interface RetainedStInput {
  base: Dec;
  rate?: Dec | null;
  substituteValue?: Dec | null;
  value: Dec;
  fcpBase?: Dec | null;
  fcpRate?: Dec | null;
  fcpValue?: Dec | null;
}

export type TaxName = 'icms' | 'icmsSt' | 'ipi' | 'pis' | 'cofins';
export const TAX_NAMES: TaxName[] = ['icms', 'icmsSt', 'ipi', 'pis', 'cofins'];

/** The supplier's values as declared on the invoice (cProd is `supplierProductCode`). */
export interface DeclaredValues {
  description?: string | null;
  unit?: string | null;
  quantity?: Dec | null;
  unitPrice?: Dec | null;
  /** The line value as invoiced (vProd). */
  total?: Dec | null;
  ncm?: string | null;
  cfop?: string | null;
}

export interface ItemInput {
  /** Own product; null/absent → PENDING (must be set before confirming). */
  productId?: number | null;
  /** Kept on the document and in the payable, but posts no stock. */
  ignored?: boolean;
  supplierProductCode?: string | null;
  description: string;
  ncm?: string | null;
  cfop?: string | null;
  unit: string;
  quantity: Dec;
  unitPrice: Dec;
  discount?: Dec | null;
  freight?: Dec | null;
  insurance?: Dec | null;
  otherExpenses?: Dec | null;
  taxes?: Partial<Record<TaxName, TaxInput | null>> | null;
  /** Stock units per purchase unit (a box of 12 → 12). Default 1. */
  conversionFactor?: Dec | null;
  declared?: DeclaredValues | null;
  /** The purchase-order line received against; null/absent: none. */
  purchaseOrderItemId?: number | null;
  /** The NF-e line's tax-reform values (imports only; kept as given). */
  reformTaxes?: ReformTaxBlock | null;
  /** The inbound CFOP chosen for the line; absent → the company's rules and the defaults decide. */
  entryCfop?: string | null;
  /** The operation class chosen for the line; absent → derived from the entry CFOP and finNFe. */
  operationClass?: OperationClass | null;
  /**
   * CT-e freight apportioned to the line (§4b), net of the freight's ICMS credited on it: part of its
   * cost, not of the document total or payable. Set by the CT-e module only, kept across edits.
   */
  apportionedFreight?: Dec | null;
  /** An imported line (entry CFOP 3xxx): import duty (vII) and customs expenses (vDespAdu, IOF, AFRMM), paid by the importer. */
  importDuty?: Dec | null;
  customsExpenses?: Dec | null;
}

export const CHARGE_NAMES = ['freight', 'insurance', 'discount', 'otherExpenses', 'ipi', 'icmsSt'] as const;
export type ChargeName = (typeof CHARGE_NAMES)[number];
/** Header charges, allocated to the items by item value (residue on the last item). */
export type HeaderCharges = Partial<Record<ChargeName, Dec | null>>;

export const TOTAL_NAMES = ['products', 'freight', 'insurance', 'discount', 'otherExpenses', 'ipi', 'icmsSt', 'total'] as const;
export type TotalName = (typeof TOTAL_NAMES)[number];
export type Totals = Record<TotalName, Dec>;

export interface InstallmentInput {
  number?: number;
  dueDate: string;
  amount: Dec;
}

export interface SupplierInput {
  document: string;
  name: string;
  stateRegistration?: string | null;
  uf?: string | null;
}

export interface DraftInput {
  filialId: number;
  origin: EntryDocumentOrigin;
  model?: string;
  series?: string;
  number: string;
  accessKey?: string | null;
  issueDate: string;
  /** Default: today. */
  entryDate?: string;
  operationNature?: string | null;
  notes?: string | null;
  /** Found (or created) in the supplier master by document. Either this or `supplierId`. */
  supplier?: SupplierInput;
  supplierId?: number;
  charges?: HeaderCharges | null;
  items: ItemInput[];
  installments?: InstallmentInput[] | null;
  /** The XML's ICMSTot; a difference is a warning in previews and blocks confirmation. */
  expectedTotals?: Partial<Totals> | null;
  /** The NF-e's tax-reform header and totals (imports only; kept as given). */
  reformTaxes?: ReformTaxBlock | null;
  /** finNFe; default 1 (normal). */
  purpose?: NfePurpose | null;
  /** NFref access keys: the documents this one refers to (a return's sale, a retorno's remessa). */
  referencedKeys?: string[] | null;
}

/** A finding about a document. `blocksConfirmation` ones are the confirm-preview's blocking problems. */
export interface Check {
  code: string;
  message: string;
  blocksConfirmation: boolean;
  lineNumber?: number;
  details?: Record<string, unknown>;
}
