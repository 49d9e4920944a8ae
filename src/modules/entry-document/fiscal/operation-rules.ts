import { Dec } from '../../../core/decimal';
import type { NfePurpose, OperationClass, StockTarget, TaxRegime } from './fiscal.types';

/*
 * What each operation class, each finNFe and each tax regime mean for confirmation, as data.
 * docs/decisions.md ("Entry CFOP, operation classes and net cost") gives the sources.
 */

/** Which credits a class admits at all (the regime then decides whether the company takes them). */
export interface CreditAdmission {
  /** The ICMS of the purchase's own operation. */
  icms: boolean;
  /** PIS/COFINS on the acquisition (non-cumulative regime). */
  pisCofins: boolean;
  /** IPI of industrial inputs. */
  ipi: boolean;
  /** CBS/IBS of the acquisition (2027 rule set): the broad credit of LC 214/2025 art. 47 (every acquisition but personal use, art. 57). */
  cbsIbs: boolean;
}

export interface ClassEffect {
  stock: StockTarget;
  payable: boolean;
  credits: CreditAdmission;
  /** Whether confirmation is refused (the document is not a purchase). */
  refused: boolean;
  /** What confirm does with such a line, as the preview says it. */
  effect: string;
}

const NO_CREDIT: CreditAdmission = { icms: false, pisCofins: false, ipi: false, cbsIbs: false };

export const CLASS_EFFECTS: Readonly<Record<OperationClass, ClassEffect>> = {
  PURCHASE_RESALE: {
    stock: 'OWN',
    payable: true,
    credits: { icms: true, pisCofins: true, ipi: false, cbsIbs: true },
    refused: false,
    effect: 'Purchase for resale: enters own stock at its net cost and is owed to the supplier',
  },
  PURCHASE_INPUT: {
    stock: 'OWN',
    payable: true,
    credits: { icms: true, pisCofins: true, ipi: true, cbsIbs: true },
    refused: false,
    effect: 'Purchase of an industrial input: enters own stock at its net cost and is owed to the supplier',
  },
  PURCHASE_USE_CONSUMPTION: {
    stock: 'OWN',
    payable: true,
    // No ICMS (LC 87/1996 art. 33 I) nor PIS/COFINS credit; the CBS/IBS credit is broad (LC 214/2025 art. 47).
    credits: { ...NO_CREDIT, cbsIbs: true },
    refused: false,
    effect: 'Purchase for use or consumption: no credit; enters own stock only when the product is stock-controlled; owed to the supplier',
  },
  PURCHASE_FIXED_ASSET: {
    stock: 'NONE',
    payable: true,
    credits: { ...NO_CREDIT, cbsIbs: true },
    refused: false,
    effect:
      'Purchase of a fixed asset: goes to the asset register, not to stock; owed to the supplier (ICMS via CIAP and PIS/COFINS via depreciation are not taken at entry)',
  },
  BONUS: {
    stock: 'OWN',
    payable: false,
    credits: { icms: true, pisCofins: false, ipi: false, cbsIbs: false },
    refused: false,
    effect: 'Bonificação (goods given free): enters own stock at the invoice value net of recoverable ICMS; nothing is owed',
  },
  THIRD_PARTY_INBOUND: {
    stock: 'THIRD_PARTY',
    payable: false,
    credits: NO_CREDIT,
    refused: false,
    effect:
      "Goods received that stay the sender's (industrialization, repair, demonstration, consignment, deposit): kept as third-party stock of the sender; nothing is owed",
  },
  RETURN_OF_OURS: {
    stock: 'NONE',
    payable: false,
    credits: NO_CREDIT,
    refused: false,
    effect: 'Our own goods coming back: they never left own stock (goods sent out stay ours), so nothing posts and nothing is owed',
  },
  CUSTOMER_RETURN: {
    stock: 'NONE',
    payable: false,
    credits: NO_CREDIT,
    refused: true,
    effect: 'A customer returning goods we sold: not a purchase; register it as a return of the sale instead',
  },
  IMPORT: {
    stock: 'OWN',
    payable: true,
    // The importer is equiparado a industrial for IPI (RIPI, Decreto 7.212/2010 art. 9 I) and credits it;
    // PIS/COFINS-Importação paid are credited under the non-cumulative regime (Lei 10.865/2004 art. 15).
    credits: { icms: true, pisCofins: true, ipi: true, cbsIbs: true },
    refused: false,
    effect:
      "Import: enters own stock at its net cost with the import duty, customs expenses and the taxes paid at customs (less those credited); only the goods' value (with freight and insurance) is owed to the foreign supplier",
  },
  TRANSFER: {
    stock: 'OWN',
    payable: false,
    // ICMS as the document states it (LC 87/1996 art. 12 §4º-5º by LC 204/2023, after STF ADC 49); a
    // transfer is no acquisition from another person: no PIS/COFINS credit (Lei 10.833/2003 art. 3 I).
    credits: { icms: true, pisCofins: false, ipi: false, cbsIbs: false },
    refused: false,
    effect:
      'Transfer from a filial of the same company: enters own stock at the transfer value net of the ICMS the document carries; nothing is owed',
  },
  VALUE_ADJUSTMENT: {
    stock: 'NONE',
    payable: true,
    credits: NO_CREDIT,
    refused: false,
    effect: 'Value-only document: posts no stock quantity',
  },
};

export interface PurposeRule {
  name: string;
  /** The class every line of such a document takes, whatever its CFOP. */
  forcesClass: OperationClass | null;
  /** For value-only documents: whether the value is owed to the issuer. */
  payable: boolean;
  /** For value-only documents: credits as the entry CFOP's own class admits them, or none. */
  creditsOfBaseClass: boolean;
}

/** finNFe (Manual de Orientação do Contribuinte; 5 and 6 from NT 2025.002). */
/**
 * A return (finNFe 4) whose issuer's CFOP says our own goods come back, not a customer returning a
 * purchase: consigned goods (x918, x919), containers (x921), goods transferred (x209). Such lines keep
 * the class of their entry CFOP instead of being refused as customer returns.
 */
export const RETURN_OF_OURS_ISSUER_OPERATIONS: ReadonlySet<string> = new Set(['918', '919', '921', '209']);

export const PURPOSES: Readonly<Record<NfePurpose, PurposeRule>> = {
  '1': { name: 'Normal', forcesClass: null, payable: true, creditsOfBaseClass: true },
  '2': { name: 'Complementar', forcesClass: 'VALUE_ADJUSTMENT', payable: true, creditsOfBaseClass: true },
  '3': { name: 'Ajuste', forcesClass: 'VALUE_ADJUSTMENT', payable: false, creditsOfBaseClass: true },
  '4': { name: 'Devolução de mercadoria', forcesClass: 'CUSTOMER_RETURN', payable: false, creditsOfBaseClass: false },
  '5': { name: 'Nota de crédito', forcesClass: 'VALUE_ADJUSTMENT', payable: false, creditsOfBaseClass: false },
  '6': { name: 'Nota de débito', forcesClass: 'VALUE_ADJUSTMENT', payable: true, creditsOfBaseClass: false },
};

export interface RegimeCredits {
  /** ICMS: every regime but the Simples Nacional (LC 123/2006 art. 23) is a regular ICMS contributor. */
  icms: boolean;
  /** IPI of inputs: an industrial establishment outside the Simples Nacional (RIPI, Decreto 7.212/2010 art. 225–226). */
  ipi: boolean;
  /** PIS/COFINS non-cumulative rates (Lei 10.637/2002 art. 2 and 3, Lei 10.833/2003 art. 2 and 3); null: cumulative, no credit. */
  pisCofins: { pis: Dec; cofins: Dec } | null;
}

export const REGIME_CREDITS: Readonly<Record<TaxRegime, RegimeCredits>> = {
  SIMPLES_NACIONAL: { icms: false, ipi: false, pisCofins: null },
  LUCRO_PRESUMIDO: { icms: true, ipi: true, pisCofins: null },
  LUCRO_REAL: { icms: true, ipi: true, pisCofins: { pis: new Dec('1.65'), cofins: new Dec('7.6') } },
};

/**
 * The PIS/COFINS credit base of an acquisition: the goods' value less discounts plus the charges the
 * supplier bills (freight, insurance, other expenses), without:
 * - the ICMS of the operation (Lei 10.637/2002 and 10.833/2003 art. 3 §2º III, by Lei 14.592/2023);
 * - ICMS-ST, which gives the substituted buyer no credit (STJ Tema 1.231, 2024);
 * - IPI, which the Receita Federal excludes (IN RFB 2.121/2022 art. 170 II; contested in court).
 */
export const PIS_COFINS_CREDIT_BASE = { excludesIcms: true, includesIcmsSt: false, includesIpi: false } as const;

/**
 * Supplier PIS/COFINS CSTs whose acquisition gives no credit: monophasic (02, 03, 04), ST (05), zero
 * rate (06), no incidence (08), suspension (09) — Lei 10.637/2002 art. 3 I "b" and §2º II.
 */
/**
 * CSOSNs under which a Simples Nacional supplier states the ICMS its buyer may credit (pCredSN,
 * vCredICMSSN): LC 123/2006 art. 23 §1º, Resolução CGSN 140/2018 art. 58.
 */
export const SIMPLES_CREDIT_CSOSNS: ReadonlySet<string> = new Set(['101', '201', '900']);

export const NO_CREDIT_CONTRIBUTION_CSTS: ReadonlySet<string> = new Set(['02', '03', '04', '05', '06', '08', '09']);
