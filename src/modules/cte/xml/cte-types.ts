import type { Dec } from '../../../core/decimal';

/** A CT-e 4.00 (model 57) as read from its XML (SPEC §4b). Decimals exact; texts as written. */

export type DocumentKind = 'CNPJ' | 'CPF' | 'FOREIGN';

/** Who pays the freight (ide/toma3/toma or toma4/toma): 0 sender, 1 shipper, 2 receiver, 3 recipient, 4 another party. */
export type PayerRole = 'SENDER' | 'SHIPPER' | 'RECEIVER' | 'RECIPIENT' | 'OTHER';
export const PAYER_ROLES: Record<string, PayerRole> = { '0': 'SENDER', '1': 'SHIPPER', '2': 'RECEIVER', '3': 'RECIPIENT', '4': 'OTHER' };

export interface CteParty {
  documentKind: DocumentKind | null;
  document: string | null;
  name: string | null;
  tradeName: string | null;
  stateRegistration: string | null;
  uf: string | null;
  city: string | null;
}

export interface CteIde {
  ufCode: string;
  /** cCT: the key's random code. */
  randomCode: string;
  cfop: string | null;
  operationNature: string | null;
  model: string;
  series: string;
  number: string;
  issuedAt: string;
  emissionType: string;
  checkDigit: string;
  /** tpAmb: 1 production, 2 homologation. */
  environment: string;
  /** tpCTe: 0 normal, 1 complement, 2 annulment, 3 substitute. */
  cteType: string | null;
  /** tpServ: 0 normal, 1 subcontracting, 2 redispatch, … */
  serviceType: string | null;
  /** 01 road, 02 air, 03 water, 04 rail, 05 pipeline, 06 multimodal. */
  modal: string | null;
  start: { city: string | null; uf: string | null };
  end: { city: string | null; uf: string | null };
  /** toma3/toma or toma4/toma as written. */
  payerCode: string | null;
}

export interface CtePayer extends CteParty {
  role: PayerRole;
}

export interface CteComponent {
  name: string | null;
  value: Dec;
}

export interface CteIcms {
  /** The group inside imp/ICMS: ICMS00, ICMS20, ICMS45, ICMS60, ICMS90, ICMSOutraUF, ICMSSN. */
  group: string;
  cst: string | null;
  base: Dec | null;
  rate: Dec | null;
  value: Dec | null;
  /** ICMS60: retained by the payer as substitute. */
  stRetained: Dec | null;
}

export interface CteCargoQuantity {
  unitCode: string | null;
  measure: string | null;
  quantity: Dec;
}

export interface CteBilling {
  invoice: { number: string | null; original: Dec | null; discount: Dec | null; net: Dec | null } | null;
  installments: { number: string | null; dueDate: string | null; amount: Dec }[];
}

export interface CteProtocol {
  version: string | null;
  environment: string | null;
  accessKey: string | null;
  receivedAt: string | null;
  protocolNumber: string | null;
  digestValue: string | null;
  status: string | null;
  reason: string | null;
}

export interface ParsedCte {
  root: string;
  version: string;
  accessKey: string;
  ide: CteIde;
  issuer: CteParty & { taxRegime: string | null };
  sender: CteParty | null;
  shipper: CteParty | null;
  receiver: CteParty | null;
  recipient: CteParty | null;
  /** The party named by toma (null when toma names a party the document does not carry). */
  payer: CtePayer | null;
  values: { serviceTotal: Dec; receivable: Dec; components: CteComponent[] };
  icms: CteIcms | null;
  estimatedTaxes: Dec | null;
  cargo: { value: Dec | null; mainProduct: string | null; quantities: CteCargoQuantity[] } | null;
  /** infDoc/infNFe/chave: the NF-e it carried, in document order. */
  nfeKeys: string[];
  billing: CteBilling | null;
  protocol: CteProtocol | null;
  hasSignature: boolean;
}
