import type { Dec } from '../../../core/decimal';

/*
 * The invoice as read from an NF-e XML (layout 4.00, 3.10 where it differs). Names are English; the
 * layout tag each field comes from is noted where it is not obvious. Every amount, quantity, price
 * and rate is a Dec straight from the decimal string: no float ever touches them.
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
  /** finNFe: 1 normal, 2 complementary, 3 adjustment, 4 return. */
  purpose: string | null;
  finalConsumer: string | null;
  presence: string | null;
  /** indPag: part of `ide` in 3.10, moved to `pag/detPag` in 4.00. */
  paymentIndicator: string | null;
  referencedKeys: string[];
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
  purchaseOrder: string | null;
  purchaseOrderLine: string | null;
  additionalInfo: string | null;
  taxes: NfeItemTaxes;
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
