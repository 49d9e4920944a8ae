import type { Dec } from '../../../core/decimal';

/*
 * The invoice as read from an NF-e XML (layout 4.00 with the tax-reform groups of PL_010 / NT 2025.002,
 * 3.10 where it differs). Names are English; the layout tag each field comes from is noted where it is
 * not obvious. Every amount, quantity, price and rate is a Dec straight from the decimal string: no
 * float ever touches them. Naming carries the JSON scale of the tax-reform groups: a field named
 * `rate` or ending in `Rate` is a rate (4 places), `…Quantity` a quantity (4), any other Dec an amount.
 */

export type DocumentKind = 'CNPJ' | 'CPF' | 'FOREIGN';

export interface NfeAddress {
  street: string | null;
  number: string | null;
  district: string | null;
  cityCode: string | null;
  city: string | null;
  uf: string | null;
  zipCode: string | null;
}

export interface NfeParty {
  documentKind: DocumentKind | null;
  /** CNPJ or CPF digits; for a foreign recipient the `idEstrangeiro` (may be empty). */
  document: string | null;
  name: string | null;
  tradeName: string | null;
  stateRegistration: string | null;
  uf: string | null;
  address: NfeAddress | null;
  email: string | null;
  /** Emitter tax regime (CRT): 1 Simples Nacional, 2 Simples excess, 3 normal, 4 MEI. */
  taxRegime: string | null;
}

export interface NfeIde {
  ufCode: string;
  /** cNF: the random code that is part of the access key. */
  randomCode: string;
  operationNature: string | null;
  model: string;
  series: string;
  number: string;
  /** dhEmi (dEmi before 3.10) as written, with its offset. */
  issuedAt: string;
  /** dhSaiEnt / dSaiEnt. */
  exitAt: string | null;
  /** tpNF: 0 entrada, 1 saída (from the issuer's point of view). */
  operationType: string | null;
  /** idDest: 1 internal, 2 interstate, 3 abroad. */
  destination: string | null;
  emissionType: string;
  checkDigit: string;
  /** tpAmb: 1 production, 2 homologation. */
  environment: string;
  /** finNFe: 1 normal, 2 complementary, 3 adjustment, 4 return, 5 credit note, 6 debit note (see NFE_PURPOSE). */
  purpose: string | null;
  finalConsumer: string | null;
  presence: string | null;
  /** indPag: part of `ide` in 3.10, moved to `pag/detPag` in 4.00. */
  paymentIndicator: string | null;
  /** NFref/refNFe: the NF-e keys referenced at document level (all kinds in `references`). */
  referencedKeys: string[];
  /** NFref, every kind, in XML order. */
  references: NfeReference[];
  /** cMunFGIBS: the municipality (IBGE) of the IBS/CBS taxable event (PL_010). */
  ibsCbsMunicipality: string | null;
  /** tpNFDebito: kind of debit note (finNFe 6), e.g. 01 credit transfer to cooperatives, 04 fines and interest. */
  debitNoteType: string | null;
  /** tpNFCredito: kind of credit note (finNFe 5). */
  creditNoteType: string | null;
  /** gCompraGov: a purchase by a government entity (tpEnteGov, pRedutor, tpOperGov). */
  governmentPurchase: { entityType: string; reductionRate: Dec; operationType: string | null } | null;
  /** gPagAntecipado/refNFe: the advance-payment invoices this one settles. */
  advancePaymentKeys: string[];
}

/** finNFe values; 5 and 6 come with NT 2025.002 (tax reform). */
export const NFE_PURPOSE = { NORMAL: '1', COMPLEMENTARY: '2', ADJUSTMENT: '3', RETURN: '4', CREDIT_NOTE: '5', DEBIT_NOTE: '6' } as const;

/** One NFref: refNFe / refNFeSig / refCTe carry a key; refNF (model 1/1A), refNFP (rural producer) and refECF their fields. */
export interface NfeReference {
  kind: 'NFE' | 'NFE_SIG' | 'CTE' | 'NF' | 'NFP' | 'ECF';
  accessKey: string | null;
  /** The identifying fields of a paper/producer/ECF reference, tag → value as written. */
  fields: Record<string, string> | null;
}

export interface NfeIcms {
  /** Group element, e.g. ICMS00, ICMS10, ICMS70, ICMSSN202, ICMSST, ICMSPart. */
  group: string;
  origin: string | null;
  cst: string | null;
  csosn: string | null;
  baseMode: string | null;
  baseReduction: Dec | null;
  base: Dec | null;
  rate: Dec | null;
  value: Dec | null;
  fcpBase: Dec | null;
  fcpRate: Dec | null;
  fcpValue: Dec | null;
  stBaseMode: string | null;
  stMva: Dec | null;
  stBaseReduction: Dec | null;
  stBase: Dec | null;
  stRate: Dec | null;
  stValue: Dec | null;
  fcpStBase: Dec | null;
  fcpStRate: Dec | null;
  fcpStValue: Dec | null;
  /** ST withheld earlier in the chain (vBCSTRet / vICMSSTRet). */
  stRetainedBase: Dec | null;
  stRetainedValue: Dec | null;
  /** pST (ICMS-ST + FCP-ST the final consumer bears), vICMSSubstituto, and the FCP-ST retained (vBCFCPSTRet, pFCPSTRet, vFCPSTRet). */
  stRetainedRate: Dec | null;
  stRetainedSubstitute: Dec | null;
  fcpStRetainedBase: Dec | null;
  fcpStRetainedRate: Dec | null;
  fcpStRetainedValue: Dec | null;
  /** Relief (vICMSDeson, motDesICMS, indDeduzDeson). */
  reliefValue: Dec | null;
  reliefReason: string | null;
  reliefDeducted: boolean | null;
  /** Deferral (ICMS51: pDif, vICMSDif, vICMSOp). */
  deferralRate: Dec | null;
  deferredValue: Dec | null;
  operationValue: Dec | null;
  /** Simples Nacional credit (pCredSN, vCredICMSSN). */
  snCreditRate: Dec | null;
  snCreditValue: Dec | null;
}

export interface NfeIpi {
  enquadramento: string | null;
  cst: string | null;
  base: Dec | null;
  rate: Dec | null;
  quantity: Dec | null;
  unitValue: Dec | null;
  value: Dec | null;
}

export interface NfeContribution {
  /** PISAliq, PISQtde, PISNT, PISOutr (COFINS alike). */
  group: string;
  cst: string | null;
  base: Dec | null;
  rate: Dec | null;
  quantity: Dec | null;
  unitValue: Dec | null;
  value: Dec | null;
}

export interface NfeImportTax {
  base: Dec;
  customsExpenses: Dec;
  value: Dec;
  iof: Dec;
}

export interface NfeItemTaxes {
  /** vTotTrib: estimated tax burden (informative). */
  estimatedTotal: Dec | null;
  icms: NfeIcms | null;
  ipi: NfeIpi | null;
  importTax: NfeImportTax | null;
  pis: NfeContribution | null;
  cofins: NfeContribution | null;
  /** impostoDevol/IPI/vIPIDevol: IPI returned on a return invoice. */
  ipiReturned: Dec | null;
  /** IBSCBS (PL_010): IBS and CBS of the tax reform. */
  ibsCbs: NfeIbsCbs | null;
  /** IS (PL_010): the selective tax (Imposto Seletivo). */
  selectiveTax: NfeSelectiveTax | null;
}

/* ---- Tax reform (NT 2025.002, layout PL_010): per item ---- */

/** gIBSUF, gIBSMun or gCBS inside gIBSCBS. */
export interface NfeIbsCbsShare {
  /** pIBSUF / pIBSMun / pCBS. */
  rate: Dec;
  /** gDif: deferral rate and deferred value. */
  deferral: { rate: Dec; value: Dec } | null;
  /** gDevTrib/vDevTrib: tax returned (refunded) to the buyer. */
  returnedValue: Dec | null;
  /** gRed: rate reduction and the effective rate. */
  reduction: { rate: Dec; effectiveRate: Dec } | null;
  /** vIBSUF / vIBSMun / vCBS. */
  value: Dec;
}

/** Values of one tax under another rate set (gTribRegular: regular taxation; gTribCompraGov: government purchase). */
export interface NfeIbsCbsRates {
  ibsStateRate: Dec;
  ibsStateValue: Dec;
  ibsMunicipalRate: Dec;
  ibsMunicipalValue: Dec;
  cbsRate: Dec;
  cbsValue: Dec;
}

/** gIBSCBS: the general IBS/CBS computation of an item. */
export interface NfeIbsCbsGeneral {
  /** vBC. */
  base: Dec;
  /** gIBSUF. */
  ibsState: NfeIbsCbsShare;
  /** gIBSMun. */
  ibsMunicipal: NfeIbsCbsShare;
  /** vIBS = vIBSUF + vIBSMun. */
  ibsValue: Dec;
  /** gCBS. */
  cbs: NfeIbsCbsShare;
  /** gTribRegular: what the regular regime would charge (CSTReg, cClassTribReg, effective rates and values). */
  regular: (NfeIbsCbsRates & { cst: string; classCode: string }) | null;
  /** gTribCompraGov: the values of a government purchase. */
  governmentPurchase: NfeIbsCbsRates | null;
}

/** One single-phase (monofásico) group: base quantity, ad rem rates and values. */
export interface NfeSinglePhaseValues {
  /** qBCMono / qBCMonoReten / qBCMonoRet. */
  baseQuantity: Dec;
  /** adRemIBS…: IBS per unit. */
  ibsAdRemRate: Dec;
  ibsValue: Dec;
  /** adRemCBS…: CBS per unit. */
  cbsAdRemRate: Dec;
  cbsValue: Dec;
}

/** gIBSCBSMono: single-phase taxation of fuels. */
export interface NfeIbsCbsSinglePhase {
  /** gMonoPadrao. */
  standard: NfeSinglePhaseValues | null;
  /** gMonoReten: subject to withholding. */
  withheld: NfeSinglePhaseValues | null;
  /** gMonoRet: withheld earlier in the chain. */
  previouslyWithheld: NfeSinglePhaseValues | null;
  /** gMonoDif: deferral. */
  deferral: { ibsRate: Dec; ibsValue: Dec; cbsRate: Dec; cbsValue: Dec } | null;
  /** vTotIBSMonoItem / vTotCBSMonoItem. */
  ibsTotal: Dec;
  cbsTotal: Dec;
}

/** gIBSCredPres / gCBSCredPres. */
export interface NfePresumedCreditShare {
  /** pCredPres. */
  rate: Dec;
  /** vCredPres (or, instead, vCredPresCondSus: under a suspensive condition). */
  value: Dec | null;
  suspendedValue: Dec | null;
}

/** IBSCBS of an item (TTribNFe). */
export interface NfeIbsCbs {
  /** CST of IBS/CBS (3 digits). */
  cst: string;
  /** cClassTrib: the tax classification code (6 digits). */
  classCode: string;
  /** indDoacao: the supply is a donation. */
  donation: boolean | null;
  /** gIBSCBS (one of general, singlePhase, creditTransfer, competenceAdjustment). */
  general: NfeIbsCbsGeneral | null;
  /** gIBSCBSMono. */
  singlePhase: NfeIbsCbsSinglePhase | null;
  /** gTransfCred: credit transferred (vIBS, vCBS). */
  creditTransfer: { ibsValue: Dec; cbsValue: Dec } | null;
  /** gAjusteCompet: adjustment of another period (competApur AAAA-MM, vIBS, vCBS). */
  competenceAdjustment: { period: string; ibsValue: Dec; cbsValue: Dec } | null;
  /** gEstornoCred: credit reversal (vIBSEstCred, vCBSEstCred). */
  creditReversal: { ibsValue: Dec; cbsValue: Dec } | null;
  /** gCredPresOper: presumed credit of the operation (vBCCredPres, cCredPres, per tax). */
  presumedCredit: { base: Dec; creditCode: string; ibs: NfePresumedCreditShare | null; cbs: NfePresumedCreditShare | null } | null;
  /** gCredPresIBSZFM: presumed IBS credit in the Manaus free zone (competApur, tpCredPresIBSZFM, vCredPresIBSZFM). */
  zfmPresumedCredit: { period: string; kind: string; value: Dec } | null;
}

/** IS of an item (TIS). */
export interface NfeSelectiveTax {
  /** CSTIS, cClassTribIS. */
  cst: string;
  classCode: string;
  /** vBCIS, pIS, pISEspec. */
  base: Dec | null;
  rate: Dec | null;
  specificRate: Dec | null;
  /** uTrib / qTrib: the taxable unit and quantity of a specific rate. */
  unit: string | null;
  quantity: Dec | null;
  /** vIS. */
  value: Dec;
}

/* ---- Tax reform: document totals ---- */

/** gIBSUF / gIBSMun / gCBS of IBSCBSTot. */
export interface NfeIbsCbsShareTotals {
  deferredValue: Dec;
  returnedValue: Dec;
  value: Dec;
}

/** IBSCBSTot (TIBSCBSMonoTot). Groups the XML omits are null. */
export interface NfeIbsCbsTotals {
  /** vBCIBSCBS. */
  base: Dec;
  /** gIBS: state and municipal shares, vIBS, presumed credit (vCredPres, vCredPresCondSus). */
  ibs: {
    state: NfeIbsCbsShareTotals;
    municipal: NfeIbsCbsShareTotals;
    value: Dec;
    presumedCredit: Dec;
    presumedCreditSuspended: Dec;
  } | null;
  /** gCBS. */
  cbs: (NfeIbsCbsShareTotals & { presumedCredit: Dec; presumedCreditSuspended: Dec }) | null;
  /** gMono: single-phase totals. */
  singlePhase: {
    ibsValue: Dec;
    cbsValue: Dec;
    ibsWithheld: Dec;
    cbsWithheld: Dec;
    ibsPreviouslyWithheld: Dec;
    cbsPreviouslyWithheld: Dec;
  } | null;
  /** gEstornoCred. */
  creditReversal: { ibsValue: Dec; cbsValue: Dec } | null;
}

export interface NfeItem {
  /** nItem. */
  lineNumber: number;
  code: string;
  /** cEAN ("SEM GTIN" kept as written; matching ignores it). */
  gtin: string | null;
  description: string;
  ncm: string | null;
  cest: string | null;
  cfop: string;
  unit: string;
  quantity: Dec;
  unitPrice: Dec;
  total: Dec;
  taxableGtin: string | null;
  taxableUnit: string | null;
  taxableQuantity: Dec | null;
  taxableUnitPrice: Dec | null;
  freight: Dec;
  insurance: Dec;
  discount: Dec;
  otherExpenses: Dec;
  /** indTot = 1: vProd counts in ICMSTot/vProd. */
  countsInTotal: boolean;
  /** xPed: the buyer's purchase order number as the issuer wrote it. */
  purchaseOrder: string | null;
  /** nItemPed: the line of that purchase order. */
  purchaseOrderLine: string | null;
  additionalInfo: string | null;
  taxes: NfeItemTaxes;
  /** Σ DI/vAFRMM of an imported line (zero otherwise). */
  importAfrmm: Dec;
  /** vItem (PL_010): the item's share of the invoice total (vNFTot = Σ vItem). */
  itemValue: Dec | null;
  /** DFeReferenciado: the document (and its item) this line refers to (returns, credit and debit notes). */
  referencedDocument: { accessKey: string; lineNumber: number | null } | null;
}

/** total/ICMSTot (fields missing in 3.10 read as zero). */
export interface NfeTotals {
  icmsBase: Dec;
  icms: Dec;
  icmsRelief: Dec;
  fcpUfDest: Dec;
  icmsUfDest: Dec;
  icmsUfRemet: Dec;
  fcp: Dec;
  icmsStBase: Dec;
  icmsSt: Dec;
  fcpSt: Dec;
  fcpStRetained: Dec;
  products: Dec;
  freight: Dec;
  insurance: Dec;
  discount: Dec;
  importTax: Dec;
  ipi: Dec;
  ipiReturned: Dec;
  pis: Dec;
  cofins: Dec;
  otherExpenses: Dec;
  invoice: Dec;
  estimatedTaxes: Dec | null;
  /** ISSQNtot/vServ: services, part of vNF when the invoice has them. */
  services: Dec;
  /** IBSCBSTot (PL_010). */
  ibsCbs: NfeIbsCbsTotals | null;
  /** ISTot/vIS (PL_010). */
  selectiveTax: Dec | null;
  /** vNFTot (PL_010): the invoice total with the taxes charged "por fora" (IBS, CBS, IS). */
  invoiceWithTaxes: Dec | null;
}

export interface NfeVolume {
  quantity: string | null;
  species: string | null;
  brand: string | null;
  netWeight: Dec | null;
  grossWeight: Dec | null;
}

export interface NfeTransport {
  /** modFrete: 0 issuer, 1 recipient, 2 third party, 3/4 own, 9 none. */
  freightMode: string | null;
  carrier: { document: string | null; name: string | null; stateRegistration: string | null; uf: string | null } | null;
  vehiclePlate: string | null;
  volumes: NfeVolume[];
}

export interface NfeBilling {
  invoice: { number: string | null; original: Dec | null; discount: Dec | null; net: Dec | null } | null;
  installments: { number: string | null; dueDate: string | null; amount: Dec }[];
}

export interface NfePayment {
  indicator: string | null;
  method: string | null;
  description: string | null;
  amount: Dec;
}

export interface NfeProtocol {
  version: string | null;
  environment: string | null;
  accessKey: string | null;
  receivedAt: string | null;
  protocolNumber: string | null;
  digestValue: string | null;
  status: string | null;
  reason: string | null;
  /** The protocol carries the authority's own XMLDSig Signature (over infProt). */
  signed: boolean;
}

export interface ParsedNfe {
  /** 'nfeProc' (with protocol) or a bare 'NFe'. */
  root: 'nfeProc' | 'NFe';
  /** infNFe/@versao. */
  version: string;
  /** From infNFe/@Id without the 'NFe' prefix, as written. */
  accessKey: string;
  ide: NfeIde;
  issuer: NfeParty;
  recipient: NfeParty | null;
  items: NfeItem[];
  totals: NfeTotals;
  transport: NfeTransport | null;
  billing: NfeBilling | null;
  payments: NfePayment[];
  change: Dec | null;
  additionalInfo: { fisco: string | null; complementary: string | null } | null;
  protocol: NfeProtocol | null;
  hasSignature: boolean;
}
