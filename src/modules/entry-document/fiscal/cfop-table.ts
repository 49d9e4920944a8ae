import type { OperationClass } from './fiscal.types';

/*
 * The CFOP tables, as data. Source: the CFOP table of Convênio s/nº de 15/12/1970 (SINIEF), annex as
 * rewritten by Ajuste SINIEF 07/2001 and later adjustments. Codes 1xxx/2xxx/3xxx are entries (same
 * state / other state / abroad), 5xxx/6xxx/7xxx exits; an exit's counterpart entry keeps the origin
 * (5 → 1, 6 → 2, 7 → 3) and the operation's last three digits map as below.
 * docs/decisions.md ("Entry CFOP, operation classes and net cost") explains the choices.
 */

/**
 * Default entry CFOP of an issuer's CFOP, by the last three digits (the origin digit carries over).
 * The retailer's default: goods sold to it are bought for resale (x102, or x403 under ICMS-ST); a
 * company that buys them as inputs, for use or as fixed assets says so with a rule (by NCM or product).
 */
export const DEFAULT_ENTRY_OPERATION: Readonly<Record<string, string>> = {
  // Sales of own production or of goods bought from others → purchase for resale.
  '101': '102',
  '102': '102',
  '103': '102',
  '104': '102',
  '105': '102',
  '106': '102',
  // Interstate sales to a buyer the issuer treats as non-contributor (6107/6108): still a purchase.
  '107': '102',
  '108': '102',
  // Sales under ICMS-ST (the issuer as substitute, 5401/5403, or as substituted, 5405) → 1403.
  '401': '403',
  '403': '403',
  '405': '403',
  // Returns of purchases by our customers → returns of our sales (customer returns).
  '201': '201',
  '202': '202',
  '410': '410',
  '411': '411',
  // Goods given free (bonificação, doação, brinde) and free samples.
  '910': '910',
  '911': '911',
  // Goods that stay the sender's: industrialization, closed warehouse, comodato, demonstration,
  // repair, consignment, containers.
  '901': '901',
  '905': '905',
  '908': '908',
  '912': '912',
  '915': '915',
  '917': '917',
  '920': '920',
  // Goods of ours coming back: from industrialization (processed or not used), a closed warehouse
  // (physical or symbolic), comodato, demonstration, repair, consignment (physical or symbolic),
  // containers.
  '902': '902',
  '903': '903',
  '906': '906',
  '907': '907',
  '909': '909',
  '913': '913',
  '916': '916',
  '918': '918',
  '919': '919',
  '921': '921',
  // A service taxed by ISSQN invoiced on the NF-e.
  '933': '933',
};

export interface EntryOperation {
  /** The class the entry CFOP names; null: it names none (x949 "other entries") and a rule or the draft must. */
  operationClass: OperationClass | null;
  /**
   * False where the ICMS of the purchase cannot be credited whatever the regime: goods under ICMS-ST
   * bought for resale, whose next exit is not taxed (LC 87/1996 art. 20 §3º II).
   */
  icmsCredit: boolean;
  description: string;
}

const op = (operationClass: OperationClass | null, description: string, icmsCredit = true): EntryOperation => ({ operationClass, icmsCredit, description });

/** The nature of an entry CFOP, by its last three digits (x102 is 1102, 2102 and 3102). */
export const ENTRY_OPERATIONS: Readonly<Record<string, EntryOperation>> = {
  '101': op('PURCHASE_INPUT', 'Compra para industrialização'),
  '102': op('PURCHASE_RESALE', 'Compra para comercialização'),
  '401': op('PURCHASE_INPUT', 'Compra para industrialização em operação com mercadoria sujeita a ST'),
  '403': op('PURCHASE_RESALE', 'Compra para comercialização em operação com mercadoria sujeita a ST', false),
  '406': op('PURCHASE_FIXED_ASSET', 'Compra de bem para o ativo imobilizado cuja mercadoria está sujeita a ST'),
  '407': op('PURCHASE_USE_CONSUMPTION', 'Compra de mercadoria para uso ou consumo cuja mercadoria está sujeita a ST'),
  '551': op('PURCHASE_FIXED_ASSET', 'Compra de bem para o ativo imobilizado'),
  '556': op('PURCHASE_USE_CONSUMPTION', 'Compra de material para uso ou consumo'),
  '933': op('PURCHASE_USE_CONSUMPTION', 'Aquisição de serviço tributado pelo ISSQN'),
  '910': op('BONUS', 'Entrada de bonificação, doação ou brinde'),
  '911': op('BONUS', 'Entrada de amostra grátis'),
  '901': op('THIRD_PARTY_INBOUND', 'Entrada para industrialização por encomenda'),
  '905': op('THIRD_PARTY_INBOUND', 'Entrada de mercadoria recebida para depósito em depósito fechado ou armazém geral'),
  '908': op('THIRD_PARTY_INBOUND', 'Entrada de bem por conta de contrato de comodato'),
  '912': op('THIRD_PARTY_INBOUND', 'Entrada de mercadoria ou bem recebido para demonstração'),
  '915': op('THIRD_PARTY_INBOUND', 'Entrada de mercadoria ou bem recebido para conserto ou reparo'),
  '917': op('THIRD_PARTY_INBOUND', 'Entrada de mercadoria recebida em consignação mercantil ou industrial'),
  '920': op('THIRD_PARTY_INBOUND', 'Entrada de vasilhame ou sacaria'),
  '902': op('RETURN_OF_OURS', 'Retorno de mercadoria remetida para industrialização por encomenda'),
  '903': op('RETURN_OF_OURS', 'Entrada de mercadoria remetida para industrialização e não aplicada no referido processo'),
  '904': op('RETURN_OF_OURS', 'Retorno de remessa para venda fora do estabelecimento'),
  '906': op('RETURN_OF_OURS', 'Retorno de mercadoria remetida para depósito fechado ou armazém geral'),
  '907': op('RETURN_OF_OURS', 'Retorno simbólico de mercadoria remetida para depósito fechado ou armazém geral'),
  '909': op('RETURN_OF_OURS', 'Retorno de bem remetido por conta de contrato de comodato'),
  '913': op('RETURN_OF_OURS', 'Retorno de mercadoria ou bem remetido para demonstração'),
  '914': op('RETURN_OF_OURS', 'Retorno de mercadoria ou bem remetido para exposição ou feira'),
  '916': op('RETURN_OF_OURS', 'Retorno de mercadoria ou bem remetido para conserto ou reparo'),
  '918': op('RETURN_OF_OURS', 'Devolução de mercadoria remetida em consignação mercantil ou industrial'),
  '919': op('RETURN_OF_OURS', 'Devolução simbólica de mercadoria vendida ou utilizada em processo industrial, remetida em consignação'),
  '921': op('RETURN_OF_OURS', 'Retorno de vasilhame ou sacaria'),
  '201': op('CUSTOMER_RETURN', 'Devolução de venda de produção do estabelecimento'),
  '202': op('CUSTOMER_RETURN', 'Devolução de venda de mercadoria adquirida ou recebida de terceiros'),
  '203': op('CUSTOMER_RETURN', 'Devolução de venda de produção do estabelecimento destinada à ZFM ou ALC'),
  '204': op('CUSTOMER_RETURN', 'Devolução de venda de mercadoria adquirida de terceiros destinada à ZFM ou ALC'),
  '410': op('CUSTOMER_RETURN', 'Devolução de venda de produção do estabelecimento em operação com produto sujeito a ST'),
  '411': op('CUSTOMER_RETURN', 'Devolução de venda de mercadoria adquirida ou recebida de terceiros em operação com mercadoria sujeita a ST'),
  '949': op(null, 'Outra entrada de mercadoria ou prestação de serviço não especificada'),
};

/** The origin digit of an exit CFOP's counterpart entry. */
const ENTRY_ORIGIN: Readonly<Record<string, string>> = { '5': '1', '6': '2', '7': '3' };

export const isEntryCfop = (cfop: string) => /^[123]\d{3}$/.test(cfop);
export const isExitCfop = (cfop: string) => /^[567]\d{3}$/.test(cfop);

/** The default entry CFOP of an issuer's exit CFOP, or null when the table has none. */
export function defaultEntryCfop(issuerCfop: string): string | null {
  if (!isExitCfop(issuerCfop)) return null;
  const operation = DEFAULT_ENTRY_OPERATION[issuerCfop.slice(1)];
  return operation ? ENTRY_ORIGIN[issuerCfop[0]] + operation : null;
}

/** The entry digit an issuer's CFOP implies (5 → 1, 6 → 2, 7 → 3; an entry CFOP keeps its own). */
export function expectedEntryOrigin(declaredCfop: string | null): string | null {
  if (!declaredCfop) return null;
  return isEntryCfop(declaredCfop) ? declaredCfop[0] : (ENTRY_ORIGIN[declaredCfop[0]] ?? null);
}

export function entryOperation(entryCfop: string | null): EntryOperation | null {
  return entryCfop && isEntryCfop(entryCfop) ? (ENTRY_OPERATIONS[entryCfop.slice(1)] ?? null) : null;
}
