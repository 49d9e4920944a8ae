import type { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import type { Dec, DecimalInput } from '../../core/decimal';

/*
 * The tax engine's contract (SPEC §12.1): what a sale (or return, transfer, bonificação) owes, item by
 * item, named after the NF-e 4.00 / PL_010 layout so the emission path maps it to XML field by field.
 * Amounts are Dec rounded to 2 places, rates (percent) to 4, quantities to 4, unit prices to 10.
 * The engine may add optional fields; it never renames or removes one (emission depends on them).
 */

export type FiscalOperation = 'SALE' | 'RETURN' | 'TRANSFER' | 'BONUS';
export type FiscalModel = 55 | 65;
/** idDest: 1 inside the UF, 2 another UF, 3 abroad. */
export type FiscalDestination = 'INTERNAL' | 'INTERSTATE' | 'ABROAD';
export type Crt = 1 | 2 | 3;
/** indIEDest: 1 contributor, 2 exempt contributor, 9 non-contributor. */
export type IeIndicator = 1 | 2 | 9;

export interface FiscalAddress {
  street: string; // xLgr
  number: string; // nro
  complement: string | null; // xCpl
  district: string; // xBairro
  municipalityCode: string; // cMun, 7-digit IBGE
  municipalityName: string; // xMun
  uf: string;
  postalCode: string | null; // CEP, 8 digits
  countryCode: string; // cPais, '1058' for Brazil
  countryName: string; // xPais
  phone: string | null;
}

export interface FiscalIssuer {
  filialId: number;
  document: string; // CNPJ (alphanumeric allowed)
  name: string; // xNome
  tradeName: string | null; // xFant
  stateRegistration: string; // IE
  cnae: string | null;
  crt: Crt;
  industrial: boolean;
  /** The filial's regime (CRT 3 is either Lucro Real or Presumido: PIS/COFINS non-cumulative or cumulative); absent → from the CRT. */
  taxRegime?: 'SIMPLES_NACIONAL' | 'LUCRO_PRESUMIDO' | 'LUCRO_REAL';
  address: FiscalAddress;
  ufCode: string; // cUF, 2-digit IBGE code of the UF
}

export interface FiscalRecipient {
  customerId: number | null;
  personType: 'PF' | 'PJ' | 'FOREIGN';
  document: string | null; // CPF or CNPJ; null for an unidentified consumer (NFC-e)
  name: string | null;
  ieIndicator: IeIndicator;
  stateRegistration: string | null;
  email: string | null;
  address: FiscalAddress | null;
}

/** The rule a line used, so a preview says why (SPEC §12.1: "with the rule each line used"). */
export interface AppliedRule {
  ruleId: number | null; // the company's fiscal operation row, null for a built-in default
  description: string; // e.g. "SALE/INTERNAL/contributor: tax group REVENDA → CFOP 5102, CST 00"
  ratesSource: string; // e.g. "ICMS internal rates SP 2026-01-01 (RICMS/SP art. 52)"
}

export interface IcmsStGroup {
  modBCST: number; // 4 = MVA
  mva: Dec | null; // pMVAST
  baseReduction: Dec | null; // pRedBCST
  base: Dec; // vBCST
  rate: Dec; // pICMSST
  value: Dec; // vICMSST
  fcpBase: Dec | null; // vBCFCPST
  fcpRate: Dec | null; // pFCPST
  fcpValue: Dec | null; // vFCPST
}

export interface IcmsGroup {
  origin: number; // orig 0..8
  cst: string | null; // '00', '10', '20', '40', '41', '51', '60', '70', '90' (regime normal)
  csosn: string | null; // '101', '102', '103', '201', '202', '203', '300', '400', '500', '900' (Simples)
  modBC: number | null; // 3 = valor da operação
  baseReduction: Dec | null; // pRedBC
  base: Dec; // vBC
  rate: Dec; // pICMS
  value: Dec; // vICMS
  fcpBase: Dec | null; // vBCFCP
  fcpRate: Dec | null; // pFCP
  fcpValue: Dec | null; // vFCP
  st: IcmsStGroup | null;
  /** CSOSN 101/201/900 with a contributor buyer: pCredSN / vCredICMSSN. */
  simplesCreditRate: Dec | null;
  simplesCreditValue: Dec | null;
  /** ICMS desonerado (vICMSDeson, motDesICMS, indDeduzDeson); absent or null → none. */
  relief?: { value: Dec; reason: number; deducted: boolean } | null;
  /** CST 60 / CSOSN 500: the ICMS-ST retained earlier, from the entry of the goods; absent or null → none. */
  retained?: IcmsRetainedGroup | null;
}

/** ICMS-ST retained earlier (MOC 7.0 N26–N27d; NT 2018.005): declared by the resale of goods bought with ST, never charged again. */
export interface IcmsRetainedGroup {
  base: Dec; // vBCSTRet
  rate: Dec; // pST, the rate the final consumer bears (ICMS-ST + FCP-ST)
  substituteValue: Dec | null; // vICMSSubstituto
  value: Dec; // vICMSSTRet
  fcpBase: Dec | null; // vBCFCPSTRet
  fcpRate: Dec | null; // pFCPSTRet
  fcpValue: Dec | null; // vFCPSTRet
  /** The entry document the figures came from (null: a devolução, from its original document). */
  entryDocumentId: number | null;
  source: string;
}

/** ICMSUFDest (EC 87/2015), a non-contributor consumer in another UF. */
export interface DifalGroup {
  base: Dec; // vBCUFDest
  fcpBase: Dec; // vBCFCPUFDest
  fcpRate: Dec; // pFCPUFDest
  internalRate: Dec; // pICMSUFDest
  interstateRate: Dec; // pICMSInter (4, 7 or 12)
  destinationShare: Dec; // pICMSInterPart (100 since 2019)
  fcpValue: Dec; // vFCPUFDest
  destinationValue: Dec; // vICMSUFDest
  originValue: Dec; // vICMSUFRemet
}

export interface IpiGroup {
  cst: string; // '50', '53', '99', …
  enquadramento: string; // cEnq, '999' when none
  base: Dec;
  rate: Dec;
  value: Dec;
}

export interface PisCofinsGroup {
  cst: string; // '01', '04', '06', '07', '49', '99', …
  base: Dec;
  rate: Dec;
  value: Dec;
}

/** IBSCBS of NT 2025.002 (PL_010); informative in 2026, never in vNF. */
export interface IbsCbsGroup {
  cst: string; // '000'
  cClassTrib: string; // '000001'
  base: Dec; // vBC
  ibsUfRate: Dec; // pIBSUF
  ibsUfValue: Dec; // vIBSUF
  ibsMunRate: Dec; // pIBSMun
  ibsMunValue: Dec; // vIBSMun
  ibsValue: Dec; // vIBS
  cbsRate: Dec; // pCBS
  cbsValue: Dec; // vCBS
}

export interface FiscalItem {
  lineNumber: number; // nItem, 1-based
  productId: number;
  salesOrderItemId: number | null;
  code: string; // cProd
  gtin: string; // cEAN, 'SEM GTIN' when none
  description: string; // xProd
  ncm: string;
  cest: string | null;
  /** cBenef of the item (the rule's); absent or null → none. */
  benefitCode?: string | null;
  cfop: string;
  unit: string; // uCom
  quantity: Dec; // qCom
  unitPrice: Dec; // vUnCom
  grossTotal: Dec; // vProd = qCom × vUnCom, 2 places
  taxableGtin: string; // cEANTrib
  taxableUnit: string; // uTrib
  taxableQuantity: Dec; // qTrib
  taxableUnitPrice: Dec; // vUnTrib
  freight: Dec; // vFrete (apportioned header freight + the line's own)
  insurance: Dec; // vSeg
  discount: Dec; // vDesc
  otherExpenses: Dec; // vOutro
  icms: IcmsGroup;
  difal: DifalGroup | null;
  ipi: IpiGroup | null;
  pis: PisCofinsGroup;
  cofins: PisCofinsGroup;
  ibsCbs: IbsCbsGroup | null;
  approximateTaxes: Dec; // vTotTrib (Lei 12.741)
  /** vProd − vDesc + vST + vFrete + vSeg + vOutro + vIPI + vFCPST: what this line adds to vNF. */
  total: Dec;
  rule: AppliedRule;
  /** impostoDevol of a devolução by a non-IPI-contributor: the share of the original IPI returned (pDevol, vIPIDevol); in `total`. */
  returnedIpi?: { percent: Dec; value: Dec } | null;
}

/** ICMSTot (+ IBSCBSTot, vNFTot): always the sums of the items' groups. */
export interface FiscalTotals {
  vBC: Dec;
  vICMS: Dec;
  vICMSDeson: Dec;
  vFCPUFDest: Dec;
  vICMSUFDest: Dec;
  vICMSUFRemet: Dec;
  vFCP: Dec;
  vBCST: Dec;
  vST: Dec;
  vFCPST: Dec;
  vFCPSTRet: Dec;
  vProd: Dec;
  vFrete: Dec;
  vSeg: Dec;
  vDesc: Dec;
  vII: Dec;
  vIPI: Dec;
  vIPIDevol: Dec;
  vPIS: Dec;
  vCOFINS: Dec;
  vOutro: Dec;
  vNF: Dec;
  vTotTrib: Dec;
  ibsCbs: { base: Dec; ibsUf: Dec; ibsMun: Dec; ibs: Dec; cbs: Dec } | null;
  /** PL_010 vNFTot = Σ vItem (NT 2025.002 W60-10; itemValueOf): vNF in 2025–2026, vNF + vIBS + vCBS later; null without the IBS/CBS group. */
  vNFTot: Dec | null;
}

/**
 * NT 2025.002-RTC rule VB01-10: vItem = vProd − vDesc + vICMSST + vFCPST + vFrete + vSeg + vOutro + vII +
 * vIPI + vIPIDevol + vIBS + vCBS (+ IS and single-phase), "Exceção 1: em 2025 e 2026 não somar vIBS, vCBS,
 * vIS…"; W60-10: vNFTot = Σ vItem. So in 2025–2026 vItem is the line's share of vNF and vNFTot = vNF;
 * from 2027 both carry the IBS/CBS charged on top (docs/decisions/receivables-equal-the-invoice.md).
 */
export const reformTaxesInItemValue = (issueDate: string): boolean => Number(issueDate.slice(0, 4)) >= 2027;

/** vItem of a line with the IBS/CBS group (null without it): `total` plus, from 2027, its vIBS + vCBS. */
export function itemValueOf(item: FiscalItem, issueDate: string): Dec | null {
  const r = item.ibsCbs;
  if (!r) return null;
  return reformTaxesInItemValue(issueDate) ? item.total.plus(r.ibsValue).plus(r.cbsValue) : item.total;
}

/** What the recipient pays for the document: vNFTot when the layout has it (Σ vItem), else vNF. */
export const amountDueOf = (doc: { totals: Pick<FiscalTotals, 'vNF' | 'vNFTot'> }): Dec => doc.totals.vNFTot ?? doc.totals.vNF;

export interface ComputedFiscalDocument {
  model: FiscalModel;
  operation: FiscalOperation;
  /** natOp, e.g. "Venda de mercadoria". */
  operationNature: string;
  /** 1 outbound (saída), 0 inbound (entrada: our own devolução of a customer's goods). */
  direction: 0 | 1;
  /** finNFe: 1 normal, 4 devolução. */
  purpose: 1 | 2 | 3 | 4;
  destination: FiscalDestination;
  finalConsumer: boolean; // indFinal
  presence: number; // indPres: 1 in person (counter), 0 n/a, 2 internet, 9 other…
  issueDate: string; // YYYY-MM-DD the rules were chosen by
  ruleSetId: string; // e.g. '2026' / '2027': the rule set (by date) that computed it
  issuer: FiscalIssuer;
  recipient: FiscalRecipient;
  items: FiscalItem[];
  totals: FiscalTotals;
  /** Human-readable problems that do not block (e.g. no Lei 12.741 table loaded: vTotTrib 0). */
  warnings: string[];
  /** Lei 12.741: the approximate taxes by sphere and the IBPT table they came from (null: no table in force for any item). */
  approximateTaxSource?: { federal: Dec; state: Dec; municipal: Dec; source: string; tableVersion: string; tableKey: string } | null;
  /** NFref/refNFe: the access keys this document refers to (the original of a devolução). */
  references?: string[];
}

export interface FiscalItemInput {
  productId: number;
  salesOrderItemId?: number | null;
  quantity: DecimalInput;
  unitPrice: DecimalInput;
  /** The line's own discount, as an amount. */
  discount?: DecimalInput;
}

export interface FiscalComputationRequest {
  filialId: number;
  /** null → an unidentified final consumer (NFC-e) unless `consumerDocument` names one. */
  customerId: number | null;
  consumerDocument?: string | null;
  operation: FiscalOperation;
  /** A transfer's receiving filial (one of ours, a contributor with its IE): the recipient instead of a customer. */
  recipientFilialId?: number | null;
  model: FiscalModel;
  /** YYYY-MM-DD; picks the rule set (2026: IBS/CBS informative; 2027: CBS replaces PIS/COFINS). */
  date: string;
  items: FiscalItemInput[];
  /** Header values apportioned to the items by their net value, exact to the cent. */
  freight?: DecimalInput;
  insurance?: DecimalInput;
  discount?: DecimalInput;
  otherExpenses?: DecimalInput;
  presence?: number;
  /** indFinal; absent → the customer's flag, else true for model 65 or a buyer that is not a contributor (indIEDest ≠ 1). */
  finalConsumer?: boolean;
}

/**
 * What the fiscal module exports for the issuing paths (`src/modules/fiscal/index.ts`):
 * loads the filial, customer, products, rules and rate tables inside the tenant (`em` when a
 * transaction is open) and runs the pure engine. Missing or invalid fiscal data → BusinessRuleError
 * (422) naming the field and the rule missing.
 */
export type ComputeFiscalDocument = (
  ctx: ActorContext,
  request: FiscalComputationRequest,
  em?: EntityManager,
) => Promise<ComputedFiscalDocument>;
