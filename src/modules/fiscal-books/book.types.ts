import type { Dec } from '../../core/decimal';

/*
 * The fiscal book of a filial's month: every document the service holds, with its lines as the
 * document says them. The summary (Livros) and the EFD ICMS/IPI are both built from it and only from
 * it, so the two never disagree (docs/decisions/sped-efd-icms-ipi.md).
 */

export type BookDocumentKind = 'NFE' | 'NFCE' | 'ENTRY' | 'CTE';
/** COD_SIT (Tabela 4.1.2): 00 regular, 02 cancelled, 04 denied, 05 voided number. */
export type DocumentSituation = '00' | '02' | '04' | '05';

export interface BookParticipant {
  /** COD_PART: the CNPJ/CPF digits (stable across files). */
  code: string;
  name: string;
  cnpj: string | null;
  cpf: string | null;
  stateRegistration: string | null;
  uf: string | null;
  cityCode: string | null;
  street: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
}

export interface BookLine {
  lineNumber: number;
  productId: number | null;
  /** COD_ITEM: our product code (the supplier's code when the line has no product yet). */
  itemCode: string;
  description: string;
  unit: string;
  quantity: Dec;
  /** vProd. */
  gross: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  other: Dec;
  cfop: string;
  /** CST_ICMS: origin + Tabela B (3 characters). */
  cstIcms: string;
  icmsRate: Dec;
  icmsBase: Dec;
  icms: Dec;
  stBase: Dec;
  stRate: Dec;
  st: Dec;
  fcp: Dec;
  fcpSt: Dec;
  ipiCst: string | null;
  ipiBase: Dec;
  ipiRate: Dec;
  ipi: Dec;
  pisCst: string | null;
  pisBase: Dec;
  pisRate: Dec;
  pis: Dec;
  cofinsCst: string | null;
  cofinsBase: Dec;
  cofinsRate: Dec;
  cofins: Dec;
  /** ICMSUFDest: DIFAL of the destination UF, its FCP and the origin UF's share. */
  difal: Dec;
  difalFcp: Dec;
  difalOrigin: Dec;
  /** VL_OPR share: vProd − vDesc + vFrete + vSeg + vOutro + ST + FCP-ST + IPI. */
  operationValue: Dec;
  /** Entry lines: stock units per line unit (0220 FAT_CONV when the line's unit is not the product's). */
  conversionFactor?: Dec;
  /** VL_RED_BC share: what the base reduction left untaxed (CST 20/70). */
  baseReduction: Dec;
}

export interface BookDocument {
  /** "NFE:12", "NFCE:4", "ENTRY:9", "CTE:2": how the trace names the document. */
  ref: string;
  kind: BookDocumentKind;
  direction: 'IN' | 'OUT';
  /** IND_EMIT: own issue or a third party's. */
  ownIssue: boolean;
  model: string;
  series: string;
  number: string;
  accessKey: string | null;
  situation: DocumentSituation;
  /** finNFe (1 normal, 2 complementary, 3 adjustment, 4 return). */
  purpose: string;
  issueDate: string;
  ioDate: string;
  participant: BookParticipant | null;
  /** UF of the other party (destination of an exit, origin of an entry). */
  partnerUf: string | null;
  operationNature: string | null;
  /** IND_PGTO: 0 cash, 1 term, 2 other. */
  paymentIndicator: string;
  /** IND_FRT (modFrete). */
  freightMode: string;
  total: Dec;
  products: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  other: Dec;
  lines: BookLine[];
  /** The CT-e's own figures (D100/D190): there are no product lines. */
  freightService?: {
    cst: string;
    cfop: string;
    rate: Dec;
    base: Dec;
    icms: Dec;
    value: Dec;
    untaxed: Dec;
    startCityCode: string | null;
    endCityCode: string | null;
    cteType: string;
  };
  /** Not authorized yet (an NFC-e issued offline): a warning of the EFD. */
  pendingAuthorization?: boolean;
}

export interface VoidedNumber {
  model: string;
  series: string;
  number: string;
}

export interface FiscalBook {
  companyId: number;
  filialId: number;
  period: string;
  firstDay: string;
  lastDay: string;
  filialUf: string;
  documents: BookDocument[];
  voided: VoidedNumber[];
}
