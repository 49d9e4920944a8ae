import type { OperationClass, StockTarget } from './fiscal.types';

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
  // Returns of purchases by our customers → returns of our sales (customer returns). A retailer sold
  // goods bought from others: an industry customer's 5201/5410 (return of a purchase for
  // industrialization) is, for the retailer, 1202/1411 (return of a sale of goods bought from others).
  '201': '202',
  '202': '202',
  '410': '411',
  '411': '411',
  // Transfers between filiais of one company (for industrialization or resale, with or without ST),
  // and the return of goods received in transfer (x209): our own goods coming in.
  '151': '151',
  '152': '152',
  '408': '408',
  '409': '409',
  '209': '209',
  // Sales of goods previously received in consignment (x111–x114 → compra de mercadoria recebida
  // anteriormente em consignação); a consignee's own resale of consigned goods (x115) is a plain sale.
  '111': '111',
  '112': '111',
  '113': '113',
  '114': '113',
  '115': '102',
  // Venda para entrega futura: the billing (x922, simples faturamento) and the delivery (x116/x117).
  '116': '117',
  '117': '117',
  '922': '922',
  // Venda à ordem: the original buyer's purchase delivered elsewhere (x118/x119 → 1118), the invoice
  // to the final recipient (x120 → 1121), the goods the seller delivers on the order (x923 → 1923).
  '118': '118',
  '119': '118',
  '120': '121',
  '923': '923',
  // Industrialization done by another company for us (x124/x125): the processor's charge.
  '124': '124',
  '125': '125',
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

/**
 * Where an entry CFOP posts differently from its class (the class still decides the credits): a
 * delivery already billed posts no payable, a billing or a purchase delivered elsewhere posts no stock,
 * goods already held as the supplier's (consignment) leave third-party stock as they enter own stock.
 */
export interface EntryPosting {
  stock?: StockTarget;
  payable?: boolean;
  /** No credit at all on this document (the credit belongs to the other document of the operation). */
  noCredit?: boolean;
  /** The goods are already held as the issuer's third-party stock: it goes out as own stock comes in. */
  fromThirdParty?: boolean;
  effect: string;
}

export interface EntryOperation {
  /** The class the entry CFOP names; null: it names none (x949 "other entries") and a rule or the draft must. */
  operationClass: OperationClass | null;
  posting?: EntryPosting;
  /**
   * False where the ICMS of the purchase cannot be credited whatever the regime: goods under ICMS-ST
   * bought for resale, whose next exit is not taxed (LC 87/1996 art. 20 §3º II).
   */
  icmsCredit: boolean;
  description: string;
}

const op = (operationClass: OperationClass | null, description: string, icmsCredit = true, posting?: EntryPosting): EntryOperation => ({
  operationClass,
  icmsCredit,
  description,
  ...(posting ? { posting } : {}),
});

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
  '411': op(
    'CUSTOMER_RETURN',
    'Devolução de venda de mercadoria adquirida ou recebida de terceiros em operação com mercadoria sujeita a ST',
  ),
  '949': op(null, 'Outra entrada de mercadoria ou prestação de serviço não especificada'),
  // Transfers (Convênio SINIEF s/nº 1970, CFOP table 1.150/1.400): ICMS per the document; x409 is
  // goods under ST for resale, whose own ICMS gives no credit (LC 87/1996 art. 20 §3º II), as x403.
  '151': op('TRANSFER', 'Transferência para industrialização ou produção rural'),
  '152': op('TRANSFER', 'Transferência para comercialização'),
  '408': op('TRANSFER', 'Transferência para industrialização em operação com mercadoria sujeita a ST'),
  '409': op('TRANSFER', 'Transferência para comercialização em operação com mercadoria sujeita a ST', false),
  '209': op('TRANSFER', 'Devolução de mercadoria adquirida ou recebida de terceiros, remetida em transferência'),
  // Consignment (Ajuste SINIEF 02/1993): the goods came in as the consignor's (x917, third-party stock).
  '111': op('PURCHASE_INPUT', 'Compra para industrialização de mercadoria recebida anteriormente em consignação industrial', true, {
    fromThirdParty: true,
    effect:
      "Purchase of goods held in consignment: they leave the consignor's third-party stock and enter own stock at their net cost; owed to the supplier",
  }),
  '113': op('PURCHASE_RESALE', 'Compra para comercialização de mercadoria recebida anteriormente em consignação mercantil', true, {
    fromThirdParty: true,
    effect:
      "Purchase of goods held in consignment: they leave the consignor's third-party stock and enter own stock at their net cost; owed to the supplier",
  }),
  // Venda para entrega futura (Convênio SINIEF s/nº 1970 art. 40): the billing is owed, the delivery carries the goods and the ICMS.
  '116': op('PURCHASE_INPUT', 'Compra para industrialização originada de encomenda para recebimento futuro', true, {
    payable: false,
    effect: 'Delivery of goods billed before (x922): enters own stock at its net cost; owed on the billing, not here',
  }),
  '117': op('PURCHASE_RESALE', 'Compra para comercialização originada de encomenda para recebimento futuro', true, {
    payable: false,
    effect: 'Delivery of goods billed before (x922): enters own stock at its net cost; owed on the billing, not here',
  }),
  '922': op('VALUE_ADJUSTMENT', 'Lançamento efetuado a título de simples faturamento decorrente de compra para recebimento futuro'),
  // Venda à ordem (Convênio SINIEF s/nº 1970 art. 40 §§): three invoices, the goods posted once.
  '118': op(
    'PURCHASE_RESALE',
    'Compra de mercadoria para comercialização pelo adquirente originário, entregue pelo vendedor remetente ao destinatário, em venda à ordem',
    true,
    {
      stock: 'NONE',
      effect: 'Purchase delivered by the seller straight to our own buyer (venda à ordem): never enters our stock; owed to the supplier',
    },
  ),
  '120': op('PURCHASE_INPUT', 'Compra para industrialização, em venda à ordem, já recebida do vendedor remetente'),
  '121': op('PURCHASE_RESALE', 'Compra para comercialização, em venda à ordem, já recebida do vendedor remetente'),
  '923': op('PURCHASE_RESALE', 'Entrada de mercadoria recebida do vendedor remetente, em venda à ordem', true, {
    stock: 'NONE',
    payable: false,
    noCredit: true,
    effect:
      "Goods delivered on the order of our seller (venda à ordem): they enter stock with our seller's invoice (x120 → 1121), which is owed and credited; nothing posts here",
  }),
  // Industrialization by another company: its charge (materials and service) is owed and credited; the goods come back with x902.
  '122': op(
    'PURCHASE_INPUT',
    'Compra para industrialização em que a mercadoria foi remetida pelo fornecedor ao industrializador sem transitar pelo estabelecimento adquirente',
    true,
    {
      stock: 'NONE',
      effect: 'Input delivered straight to the processor: never enters our stock; owed to the supplier',
    },
  ),
  '124': op('PURCHASE_INPUT', 'Industrialização efetuada por outra empresa', true, {
    stock: 'NONE',
    effect: "The processor's charge for industrializing our goods (they return with x902): owed and credited, posts no stock quantity",
  }),
  '125': op(
    'PURCHASE_INPUT',
    'Industrialização efetuada por outra empresa quando a mercadoria remetida não transitou pelo estabelecimento adquirente',
    true,
    {
      stock: 'NONE',
      effect: "The processor's charge for industrializing our goods: owed and credited, posts no stock quantity",
    },
  ),
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

/** An entry from abroad (3xxx: the importer's own entry NF-e, DI/DUIMP). */
export const isImportCfop = (entryCfop: string | null | undefined) => !!entryCfop && /^3\d{3}$/.test(entryCfop);

export function entryOperation(entryCfop: string | null): EntryOperation | null {
  const op = entryCfop && isEntryCfop(entryCfop) ? (ENTRY_OPERATIONS[entryCfop.slice(1)] ?? null) : null;
  // A purchase from abroad (3101, 3102, and their ST variants) is an import: its own class (duty, customs, credits).
  if (op && isImportCfop(entryCfop) && (op.operationClass === 'PURCHASE_RESALE' || op.operationClass === 'PURCHASE_INPUT')) {
    return { ...op, operationClass: 'IMPORT', description: `${op.description} (importação)` };
  }
  return op;
}
