import { interstateRate } from '../../core/br-fiscal';
import { allocate, allocateWithin, Dec, dec, DecimalInput, round } from '../../core/decimal';
import { decOfScaled, scaledOf } from '../../core/decimal-scaled';
import { allocateCents, allocateWithinCents, factor6Of, mulDivRound, NOT_IN_CENTS, rate4Of, taxOf } from './cents';
import { BusinessRuleError, FieldError } from '../../core/errors';
import type {
  ComputedFiscalDocument,
  Crt,
  DifalGroup,
  FiscalDestination,
  FiscalIssuer,
  FiscalItem,
  FiscalModel,
  FiscalOperation,
  FiscalRecipient,
  FiscalTotals,
  IbsCbsGroup,
  IcmsGroup,
  IpiGroup,
  PisCofinsGroup,
} from './fiscal-document';
import { itemValueOf, reformTaxesInItemValue } from './fiscal-document';
import type { RetainedStEntry } from '../entry-document';
import { defaultPisCofinsCst, PIS_COFINS_RATED, pisCofinsCstProblem } from './pis-cofins';
import { cfopWithoutSt, EngineStAgreement, ItemSt, pickStAgreement, WITHOUT_ST } from './st-agreements';

/*
 * The tax engine (SPEC §12.1): a pure function of the loaded data (issuer, recipient, products, the
 * company's rules, the UF rate table, the rule set of the date, the Lei 12.741 table) → the computed
 * document. No I/O: `fiscal.service.ts` loads, this computes. Every rule's legal basis is in
 * docs/decisions.md "Tax engine". Amounts are rounded half-up to the cent per item; totals are the
 * sums of the items' rounded values.
 */

export type TaxRegime = 'SIMPLES_NACIONAL' | 'LUCRO_PRESUMIDO' | 'LUCRO_REAL';

export interface EngineProduct {
  id: number;
  code: string;
  name: string;
  unit: string;
  gtin: string | null;
  ncm: string | null;
  cest: string | null;
  origin: number;
  taxableUnit: string | null;
  taxableFactor: Dec;
  taxGroupId: number | null;
}

export interface EngineTaxGroup {
  id: number;
  code: string;
}

export interface EngineRule {
  id: number;
  taxGroupId: number;
  operation: FiscalOperation;
  destination: FiscalDestination;
  contributor: boolean;
  validFrom: string;
  validTo: string | null;
  cfop: string;
  operationNature: string | null;
  icmsCst: string | null;
  csosn: string | null;
  icmsBaseReduction: Dec | null;
  icmsRate: Dec | null;
  stMode: 'NONE' | 'MVA' | 'ALREADY_TAXED' | 'AGREEMENT';
  stMva: Dec | null;
  stBaseReduction: Dec | null;
  pisCst: string | null;
  pisRate: Dec | null;
  cofinsCst: string | null;
  cofinsRate: Dec | null;
  ipiCst: string | null;
  ipiRate: Dec | null;
  ipiEnquadramento: string | null;
  ibsCbsCst: string | null;
  ibsCbsClass: string | null;
  benefitCode?: string | null;
  reliefReason?: number | null;
  reliefDeducted?: boolean;
  active: boolean;
}

export interface EngineUfRate {
  companyId: number;
  uf: string;
  taxGroupId: number;
  validFrom: string;
  validTo: string | null;
  internalRate: Dec;
  fcpRate: Dec;
  difalDoubleBase: boolean;
  source: string;
  sourceDate: string;
}

export interface EngineRuleSet {
  code: string;
  pisCofins: boolean;
  ibsCbs: boolean;
  ibsCbsInformative: boolean;
  cbsRate: Dec;
  ibsUfRate: Dec;
  ibsMunRate: Dec;
  ibsCbsCst: string;
  ibsCbsClass: string;
  source: string;
}

export interface EngineApproximateTax {
  federalNationalRate: Dec;
  federalImportedRate: Dec;
  stateRate: Dec;
  municipalRate: Dec;
  tableVersion: string;
  tableKey?: string;
  source?: string;
}

export interface EngineItem {
  productId: number;
  salesOrderItemId: number | null;
  quantity: DecimalInput;
  unitPrice: DecimalInput;
  discount?: DecimalInput;
}

export interface EngineInput {
  model: FiscalModel;
  operation: FiscalOperation;
  date: string;
  issuer: FiscalIssuer;
  regime: TaxRegime;
  simplesCreditRate: Dec | null;
  recipient: FiscalRecipient;
  items: EngineItem[];
  freight?: DecimalInput;
  insurance?: DecimalInput;
  discount?: DecimalInput;
  otherExpenses?: DecimalInput;
  presence?: number;
  finalConsumer?: boolean;
  products: Map<number, EngineProduct>;
  taxGroups: Map<number, EngineTaxGroup>;
  /** Candidate rules (any date); the engine picks the one in force. */
  rules: EngineRule[];
  /** Shipped (company 0) and the company's UF rows; the engine applies the precedence. */
  ufRates: EngineUfRate[];
  ruleSet: EngineRuleSet | null;
  /** null → no Lei 12.741 table loaded (vTotTrib 0 with a warning). */
  approximateTaxes: Map<string, EngineApproximateTax> | null;
  /** The company's ST agreements by pair of states and goods (rules with stMode AGREEMENT); absent → none. */
  stAgreements?: EngineStAgreement[];
  /** Per product, the last confirmed entry at the filial that paid ICMS-ST (rules with stMode ALREADY_TAXED); absent → none. */
  retainedSt?: Map<number, RetainedStEntry>;
}

const ZERO = new Dec(0);
const ONE = new Dec(1);
const HUNDRED = new Dec(100);

/*
 * The engine's inputs are few distinct rates applied to many lines, and decimal.js's division and
 * rounding dominate its cost: a rate's fraction (rate / 100, exact at 40 digits) and its 4-place form
 * are computed once per rate object, so `pct` is one product and one rounding — the same value as
 * base × rate / 100 rounded.
 */
const fractions = new WeakMap<Dec, Dec>();
const fourPlaces = new WeakMap<Dec, Dec>();
function fractionOf(rate: Dec): Dec {
  let f = fractions.get(rate);
  if (!f) fractions.set(rate, (f = rate.div(HUNDRED)));
  return f;
}
const pct = (base: Dec, rate: Dec) => round(base.times(fractionOf(rate)), 'amount');
function r4(v: Dec): Dec {
  let r = fourPlaces.get(v);
  if (!r) fourPlaces.set(v, (r = round(v, 'percent')));
  return r;
}
const interstateRates = new Map<number, Dec>();
/** The interstate rate as a decimal (one object per rate: 4, 7 or 12 %). */
function interstateDec(originUf: string, destinationUf: string, origin: number): Dec {
  const rate = interstateRate(originUf, destinationUf, origin);
  let d = interstateRates.get(rate);
  if (!d) interstateRates.set(rate, (d = new Dec(rate)));
  return d;
}

/** CSTs of the regime normal with the operation's own ICMS (base, rate, value). */
const TAXED_CST = new Set(['00', '10', '20', '70']);
const SUPPORTED_CST = new Set(['00', '10', '20', '30', '40', '41', '50', '60', '70']);
const ST_CST = new Set(['10', '30', '70']);
const REDUCED_CST = new Set(['20', '70']);
/** CSTs whose XML group carries vICMSDeson here (ICMS20, ICMS40 for 40/41/50). */
const RELIEF_CST = new Set(['20', '40', '41', '50']);
const SUPPORTED_CSOSN = new Set(['101', '102', '103', '201', '202', '203', '300', '400', '500']);
const ST_CSOSN = new Set(['201', '202', '203']);
/** IPI CSTs of a taxed exit (IN RFB; 50 taxed, 99 other) — the others are IPINT without values. */
const IPI_TAXED = new Set(['50', '99']);
/** Imported goods for the Lei 12.741 federal rate (IBPT "importados"). */
const IMPORTED_ORIGINS = new Set([1, 2, 6, 7]);

const DEFAULT_NATURE: Record<FiscalOperation, string> = {
  SALE: 'Venda de mercadoria',
  RETURN: 'Devolução de venda',
  TRANSFER: 'Transferência de mercadoria',
  BONUS: 'Remessa em bonificação',
};

/** PIS/COFINS rates by regime: non-cumulative (Lucro Real) and cumulative (Lucro Presumido). */
const PIS_COFINS_DEFAULTS: Record<'LUCRO_REAL' | 'LUCRO_PRESUMIDO', { pis: string; cofins: string }> = {
  LUCRO_REAL: { pis: '1.65', cofins: '7.6' },
  LUCRO_PRESUMIDO: { pis: '0.65', cofins: '3' },
};

/** 422 naming the fields and the missing rule (nothing is written by a computation). */
export class FiscalDataProblems {
  readonly errors: FieldError[] = [];
  missingRule: Record<string, unknown> | null = null;
  add(path: string, message: string): void {
    this.errors.push({ path, message });
  }
  throwIfAny(): void {
    if (!this.errors.length) return;
    const code = this.missingRule ? 'FISCAL_RULE_MISSING' : 'FISCAL_DATA_INVALID';
    const detail = this.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw new BusinessRuleError(code, `The fiscal document cannot be computed: ${detail}`, {
      errors: this.errors,
      ...(this.missingRule ? { missingRule: this.missingRule } : {}),
    });
  }
}

export const crtOf = (regime: TaxRegime, excessSublimit: boolean): Crt => (regime === 'SIMPLES_NACIONAL' ? (excessSublimit ? 2 : 1) : 3);

export function destinationOf(model: FiscalModel, issuerUf: string, recipient: FiscalRecipient): FiscalDestination {
  if (model === 65 || !recipient.address) return 'INTERNAL';
  if (recipient.personType === 'FOREIGN' || recipient.address.countryCode !== '1058') return 'ABROAD';
  return recipient.address.uf === issuerUf ? 'INTERNAL' : 'INTERSTATE';
}

const inForce = (date: string, from: string, to: string | null) => from <= date && (to === null || date <= to);

/** The rule in force on `date` for the key: the latest `validFrom` among the active matches. */
export function pickRule(
  rules: EngineRule[],
  taxGroupId: number,
  operation: FiscalOperation,
  destination: FiscalDestination,
  contributor: boolean,
  date: string,
): EngineRule | null {
  let best: EngineRule | null = null;
  for (const r of rules) {
    if (
      !r.active ||
      r.taxGroupId !== taxGroupId ||
      r.operation !== operation ||
      r.destination !== destination ||
      r.contributor !== contributor
    )
      continue;
    if (!inForce(date, r.validFrom, r.validTo)) continue;
    if (!best || r.validFrom > best.validFrom) best = r;
  }
  return best;
}

/** The UF row in force: the company's for the tax group, else the company's for every product, else the shipped one. */
export function pickUfRate(rates: EngineUfRate[], uf: string, taxGroupId: number, date: string): EngineUfRate | null {
  let best: EngineUfRate | null = null;
  let bestRank = -1;
  for (const r of rates) {
    if (r.uf !== uf || !inForce(date, r.validFrom, r.validTo)) continue;
    if (r.taxGroupId !== 0 && r.taxGroupId !== taxGroupId) continue;
    const rank = (r.companyId !== 0 ? 2 : 0) + (r.taxGroupId !== 0 ? 1 : 0);
    if (rank > bestRank || (rank === bestRank && best && r.validFrom > best.validFrom)) {
      best = r;
      bestRank = rank;
    }
  }
  return best;
}

const rateSources = new WeakMap<EngineUfRate, string>();
/** A UF row's source text, built once per row (rows are shared between computations: rule-data-cache.ts). */
function rateSource(r: EngineUfRate): string {
  let text = rateSources.get(r);
  if (text === undefined) rateSources.set(r, (text = rateSourceText(r)));
  return text;
}
const rateSourceText = (r: EngineUfRate) =>
  `ICMS ${r.uf} ${r.internalRate.toString()} %${r.fcpRate.isZero() ? '' : ` + FCP ${r.fcpRate.toString()} %`} (${r.companyId === 0 ? 'shipped' : 'company'}: ${r.source}, ${r.sourceDate})`;

interface Prepared {
  product: EngineProduct;
  group: EngineTaxGroup;
  rule: EngineRule;
  /** The ICMS CST/CSOSN and CFOP the line takes: the rule's, or their counterparts without ST when no agreement applies. */
  cst: string | null;
  csosn: string | null;
  cfop: string;
  st: ItemSt | null;
  /** CST 60 / CSOSN 500 under stMode ALREADY_TAXED: the entry whose ST the line declares as retained. */
  retained: RetainedStEntry | null;
  quantity: Dec;
  unitPrice: Dec;
  vProd: Dec;
  lineDiscount: Dec;
  /** The same figures as scaled integers (quantity × 10^4, unit price × 10^10, cents), null when they are not exact that way. */
  cents: { quantity: number; unitPrice: number; vProd: number; lineDiscount: number } | null;
  input: EngineItem;
}

/** The line's quantity, unit price, vProd and own discount in scaled integers, or null (decimal.js computes the line). */
function lineCents(item: EngineItem) {
  const quantity = scaledOf(item.quantity, 4);
  const unitPrice = scaledOf(item.unitPrice, 10);
  const lineDiscount = scaledOf(item.discount, 2);
  if (quantity === undefined || unitPrice === undefined || lineDiscount === undefined) return null;
  try {
    return { quantity, unitPrice, vProd: mulDivRound(quantity, unitPrice, 1e12), lineDiscount };
  } catch (err) {
    if (err === NOT_IN_CENTS) return null;
    throw err;
  }
}

/** Validates what the computation needs (issuer, recipient, products, rules) and collects every problem before failing. */
function prepare(input: EngineInput, destination: FiscalDestination, contributor: boolean, problems: FiscalDataProblems): Prepared[] {
  const { issuer, recipient, model } = input;
  if (!issuer.stateRegistration) problems.add('filial.stateRegistration', 'the issuer needs its IE');
  if (!issuer.address.municipalityCode)
    problems.add('filial.address.municipalityCode', 'the issuer needs its address with the IBGE municipality code');
  if (model === 55) {
    // A transfer's recipient is one of our filiais (recipientFilialId), identified by its CNPJ.
    if (recipient.customerId === null && !(input.operation === 'TRANSFER' && recipient.document))
      problems.add('customerId', 'an NF-e (model 55) needs an identified customer');
    else {
      if (!recipient.document && recipient.personType !== 'FOREIGN')
        problems.add('customer.document', 'an NF-e recipient needs a CPF or CNPJ');
      if (!recipient.address)
        problems.add('customer.address.municipalityCode', 'an NF-e recipient needs an address with the IBGE municipality code');
    }
    if (recipient.ieIndicator === 1 && !recipient.stateRegistration)
      problems.add('customer.stateRegistration', 'a contributor (indIEDest 1) needs its IE');
  }
  if (!input.items.length) problems.add('items', 'at least one item');
  const out: Prepared[] = [];
  const missing: Record<string, unknown>[] = [];
  // Every line of a tax group has the same rule (same operation, destination, buyer and date).
  const ruleOfGroup = new Map<number, EngineRule | null>();
  input.items.forEach((item, i) => {
    const path = `items[${i}]`;
    const product = input.products.get(item.productId);
    if (!product) {
      problems.add(`${path}.productId`, 'product not found');
      return;
    }
    if (!product.ncm) problems.add(`${path}.product.ncm`, `product ${product.code} has no NCM`);
    if (product.taxGroupId === null) {
      problems.add(`${path}.product.taxGroupId`, `product ${product.code} has no tax group`);
      return;
    }
    const group = input.taxGroups.get(product.taxGroupId);
    if (!group) {
      problems.add(`${path}.product.taxGroupId`, `product ${product.code}: tax group not found`);
      return;
    }
    let rule = ruleOfGroup.get(group.id);
    if (rule === undefined)
      ruleOfGroup.set(group.id, (rule = pickRule(input.rules, group.id, input.operation, destination, contributor, input.date)));
    if (!rule) {
      const key = { taxGroup: group.code, operation: input.operation, destination, contributor, date: input.date };
      missing.push(key);
      problems.add(
        `${path}.rule`,
        `no fiscal operation rule for tax group ${group.code}, ${input.operation}, ${destination}, ${contributor ? 'contributor' : 'non-contributor'} on ${input.date}`,
      );
      return;
    }
    const crt = issuer.crt;
    if (crt === 1) {
      if (!rule.csosn)
        problems.add(`${path}.rule.csosn`, `rule ${rule.id} (tax group ${group.code}) has no CSOSN for a Simples Nacional issuer`);
      else if (!SUPPORTED_CSOSN.has(rule.csosn)) problems.add(`${path}.rule.csosn`, `CSOSN ${rule.csosn} is not computed by the engine`);
    } else {
      if (!rule.icmsCst)
        problems.add(`${path}.rule.icmsCst`, `rule ${rule.id} (tax group ${group.code}) has no ICMS CST for a regime-normal issuer`);
      else if (!SUPPORTED_CST.has(rule.icmsCst))
        problems.add(`${path}.rule.icmsCst`, `ICMS CST ${rule.icmsCst} is not computed by the engine`);
      else if (rule.reliefReason && !RELIEF_CST.has(rule.icmsCst))
        problems.add(
          `${path}.rule.reliefReason`,
          `rule ${rule.id}: ICMS desonerado is carried by CST 20, 40, 41 or 50, not ${rule.icmsCst}`,
        );
    }
    const icms = icmsCodesOf(input, rule, product, destination, path, problems);
    const retained = retainedOf(input, rule, product, icms, path, problems);
    for (const [field, cst] of [
      ['pisCst', rule.pisCst],
      ['cofinsCst', rule.cofinsCst],
    ] as const) {
      const problem = cst && pisCofinsCstProblem(cst, input.operation);
      if (problem) problems.add(`${path}.rule.${field}`, `rule ${rule.id}: ${problem}`);
    }
    if (issuer.industrial && !rule.ipiCst) problems.add(`${path}.rule.ipiCst`, `rule ${rule.id}: an industrial issuer needs the IPI CST`);
    const cents = lineCents(item);
    let quantity: Dec, unitPrice: Dec, vProd: Dec, lineDiscount: Dec;
    if (cents) {
      // The same checks and values in integers; the Decs are the ones decimal.js would give.
      if (cents.quantity <= 0) problems.add(`${path}.quantity`, 'must be positive');
      if (cents.unitPrice < 0) problems.add(`${path}.unitPrice`, 'must not be negative');
      if (cents.lineDiscount < 0 || cents.lineDiscount > cents.vProd)
        problems.add(`${path}.discount`, 'must be between 0 and the line value');
      quantity = item.quantity instanceof Dec ? item.quantity : decOfScaled(cents.quantity, 4);
      unitPrice = item.unitPrice instanceof Dec ? item.unitPrice : decOfScaled(cents.unitPrice, 10);
      vProd = decOfScaled(cents.vProd, 2);
      lineDiscount = decOfScaled(cents.lineDiscount, 2);
    } else {
      quantity = dec(item.quantity);
      unitPrice = dec(item.unitPrice);
      if (quantity.lte(0)) problems.add(`${path}.quantity`, 'must be positive');
      if (unitPrice.lt(0)) problems.add(`${path}.unitPrice`, 'must not be negative');
      vProd = round(quantity.times(unitPrice), 'amount');
      lineDiscount = round(dec(item.discount), 'amount');
      if (lineDiscount.lt(0) || lineDiscount.gt(vProd)) problems.add(`${path}.discount`, 'must be between 0 and the line value');
    }
    out.push({ product, group, rule, ...icms, retained, quantity, unitPrice, vProd, lineDiscount, cents, input: item });
  });
  if (missing.length) problems.missingRule = missing.length === 1 ? missing[0] : { rules: missing };
  return out;
}

/**
 * The line's ICMS codes and ST: a rule with ST by MVA uses its own MVA; one with stMode AGREEMENT the
 * agreement of the pair of states and the goods (st-agreements.ts) — none in force, no ST. An ST item
 * needs its CEST (Convênio ICMS 142/2018 cl. 5: the CEST identifies goods subject to ST in the document).
 */
function icmsCodesOf(
  input: EngineInput,
  rule: EngineRule,
  product: EngineProduct,
  destination: FiscalDestination,
  path: string,
  problems: FiscalDataProblems,
) {
  const simples = input.issuer.crt === 1;
  let cst = simples ? null : rule.icmsCst;
  let csosn = simples ? rule.csosn : null;
  let cfop = rule.cfop;
  let st: ItemSt | null = null;
  const code = (simples ? csosn : cst) ?? '';
  if ((simples ? ST_CSOSN : ST_CST).has(code)) {
    if (rule.stMode === 'MVA' && rule.stMva) st = { mva: rule.stMva, internalRate: null, source: null };
    else if (rule.stMode === 'AGREEMENT') {
      const originUf = input.issuer.address.uf;
      const destinationUf = destination === 'INTERSTATE' ? input.recipient.address!.uf : originUf;
      const agreement = pickStAgreement(input.stAgreements ?? [], {
        originUf,
        destinationUf,
        ncm: product.ncm,
        cest: product.cest,
        date: input.date,
      });
      if (agreement)
        st = {
          mva: agreement.mva,
          internalRate: agreement.destinationInternalRate,
          source: `ST ${originUf}→${destinationUf} NCM ${agreement.ncmPrefix}${agreement.cest ? ` CEST ${agreement.cest}` : ''}: ${agreement.source}`,
        };
      else {
        if (simples) csosn = WITHOUT_ST[code];
        else cst = WITHOUT_ST[code];
        cfop = cfopWithoutSt(cfop, input.operation);
      }
    } else problems.add(`${path}.rule.stMva`, `rule ${rule.id}: CST/CSOSN with ST needs the MVA (or stMode AGREEMENT)`);
    if (st && !product.cest) problems.add(`${path}.product.cest`, `product ${product.code} is sold with ST: it needs its CEST`);
  }
  return { cst, csosn, cfop, st };
}

/**
 * Goods already taxed by ST (rule stMode ALREADY_TAXED, CST 60 / CSOSN 500): the line declares the ST
 * its entry paid (MOC 7.0 N26–N27d, groups "ICMS ST retido anteriormente" and FCP-ST retido; NT 2018.005),
 * from the last confirmed entry of the product at the filial (row 8b of docs/decisions/tax-law-rows.md).
 * No such entry → 422: the figures have no source, and a rule cannot carry them (they are the purchase's).
 */
function retainedOf(
  input: EngineInput,
  rule: EngineRule,
  product: EngineProduct,
  codes: { cst: string | null; csosn: string | null },
  path: string,
  problems: FiscalDataProblems,
): RetainedStEntry | null {
  if (rule.stMode !== 'ALREADY_TAXED' || (codes.cst !== '60' && codes.csosn !== '500')) return null;
  const entry = input.retainedSt?.get(product.id) ?? null;
  if (!entry)
    problems.add(
      `${path}.retainedSt`,
      `product ${product.code} is resold with ${codes.cst ? 'CST 60' : 'CSOSN 500'} (rule ${rule.id}): no confirmed entry of it at this filial up to ${input.date} paid ICMS-ST, so vBCSTRet, pST and vICMSSTRet have no source (confirm the entry of the goods, with its ICMS-ST)`,
    );
  return entry;
}

/** indFinal 0 is a buyer for resale: never at the counter (NFC-e) nor from a non-contributor (NF-e rule 696). */
function checkFinalConsumer(model: FiscalModel, recipient: FiscalRecipient, finalConsumer: boolean, problems: FiscalDataProblems): void {
  if (finalConsumer) return;
  if (model === 65) problems.add('finalConsumer', 'an NFC-e (model 65) is always to a final consumer');
  else if (recipient.ieIndicator === 9)
    problems.add('finalConsumer', 'a non-contributor (indIEDest 9) is a final consumer (NF-e rule 696)');
}

/**
 * The computed document, or a 422 naming every missing/invalid field and rule. `inDecimals` computes it
 * with decimal.js throughout (the reference the integer path is held to: tests/fiscal/engine-cents.test.ts).
 */
export function computeDocument(input: EngineInput, options: { inDecimals?: boolean } = {}): ComputedFiscalDocument {
  const problems = new FiscalDataProblems();
  const { issuer, recipient, model, operation, date } = input;
  const destination = destinationOf(model, issuer.address.uf, recipient);
  const contributor = recipient.ieIndicator === 1;
  const finalConsumer = input.finalConsumer ?? (model === 65 || !contributor);
  checkFinalConsumer(model, recipient, finalConsumer, problems);
  const lines = prepare(input, destination, contributor, problems);
  const destinationUf = destination === 'INTERSTATE' ? recipient.address!.uf : issuer.address.uf;
  const ruleSet = input.ruleSet;
  if (!ruleSet) problems.add('date', `no federal rule set in force on ${date}`);
  // UF rates of the lines' groups, checked before computing.
  const ufRateOf = new Map<string, EngineUfRate>();
  const ufRate = (uf: string, groupId: number) => ufRateOf.get(`${uf}:${groupId}`)!;
  for (const [i, line] of lines.entries()) {
    for (const uf of new Set([issuer.address.uf, destinationUf])) {
      const key = `${uf}:${line.group.id}`;
      if (ufRateOf.has(key)) continue;
      const found = pickUfRate(input.ufRates, uf, line.group.id, date);
      if (found) ufRateOf.set(key, found);
      else problems.add(`items[${i}].ufRate`, `no ICMS rate of ${uf} in force on ${date}`);
    }
  }
  if (
    issuer.crt === 1 &&
    lines.some((l) => ['101', '201'].includes(l.rule.csosn ?? '')) &&
    contributor &&
    !finalConsumer &&
    !input.simplesCreditRate
  ) {
    problems.add('filial.simplesCreditRate', 'CSOSN 101/201 to a contributor needs the filial’s pCredSN');
  }
  const header = {
    freight: round(dec(input.freight), 'amount'),
    insurance: round(dec(input.insurance), 'amount'),
    discount: round(dec(input.discount), 'amount'),
    other: round(dec(input.otherExpenses), 'amount'),
  };
  for (const [k, v] of Object.entries(header)) if (v.lt(0)) problems.add(k === 'other' ? 'otherExpenses' : k, 'must not be negative');
  problems.throwIfAny();

  const common = { destination, destinationUf, contributor, finalConsumer, ruleSet: ruleSet!, ufRate };
  // In scaled integers when every figure is exact that way (cents.ts), else — or on the first value that
  // is not — with decimal.js: the same figures either way (tests/fiscal/engine-cents.test.ts).
  const computed =
    (!options.inDecimals && inCents(lines, header) && itemsInCents(input, lines, header, common)) ||
    itemsInDecimals(input, lines, header, common);
  const { items, warnings, approximate, totals } = computed;
  const firstRule = lines[0].rule;
  return {
    model,
    operation,
    operationNature: firstRule.operationNature ?? DEFAULT_NATURE[operation],
    direction: operation === 'RETURN' ? 0 : 1,
    purpose: operation === 'RETURN' ? 4 : 1,
    destination,
    finalConsumer,
    presence: input.presence ?? 1,
    issueDate: date,
    ruleSetId: ruleSet!.code,
    issuer,
    recipient,
    items,
    totals,
    warnings,
    approximateTaxSource: approximate.table
      ? {
          federal: approximate.federal,
          state: approximate.state,
          municipal: approximate.municipal,
          source: approximate.table.source ?? 'IBPT',
          tableVersion: approximate.table.tableVersion,
          tableKey: approximate.table.tableKey ?? '',
        }
      : null,
  };
}

type Header = { freight: Dec; insurance: Dec; discount: Dec; other: Dec };
type Common = Pick<ItemContext, 'destination' | 'destinationUf' | 'contributor' | 'finalConsumer' | 'ruleSet' | 'ufRate'>;
interface ComputedItems {
  items: FiscalItem[];
  warnings: string[];
  approximate: ApproximateParts;
  totals: FiscalTotals;
}

const approximateTableWarning = (input: EngineInput) =>
  `No Lei 12.741 approximate-tax table is loaded for ${input.issuer.address.uf}: vTotTrib is 0 (POST /fiscal/approximate-taxes loads the IBPT table).`;

/** The items and totals with decimal.js (any input). */
function itemsInDecimals(input: EngineInput, lines: Prepared[], header: Header, common: Common): ComputedItems {
  const problems = new FiscalDataProblems();
  // Header values apportioned by each line's net value, exact to the cent (the residue on the last line).
  const weights = lines.map((l) => l.vProd.minus(l.lineDiscount));
  const freights = allocate(header.freight, weights);
  const insurances = allocate(header.insurance, weights);
  const discounts = allocateWithin(header.discount, weights);
  const others = allocate(header.other, weights);
  const warnings: string[] = [];
  if (!input.approximateTaxes) warnings.push(approximateTableWarning(input));
  const approximate: ApproximateParts = { federal: ZERO, state: ZERO, municipal: ZERO, table: null };

  const items: FiscalItem[] = lines.map((line, i) => {
    const discount = line.lineDiscount.plus(discounts[i]);
    if (discount.gt(line.vProd)) {
      problems.add(`items[${i}].discount`, 'the apportioned header discount exceeds the line value');
      return null as never;
    }
    return computeItem(input, line, i, {
      ...common,
      warnings,
      freight: freights[i],
      insurance: insurances[i],
      discount,
      other: others[i],
      approximate,
    });
  });
  problems.throwIfAny();
  return { items, warnings, approximate, totals: totalsOf(items, input.date) };
}

/** The Lei 12.741 parts the document adds up for its infCpl (federal, state, municipal) and the table they came from. */
interface ApproximateParts {
  federal: Dec;
  state: Dec;
  municipal: Dec;
  table: EngineApproximateTax | null;
}

interface ItemContext {
  destination: FiscalDestination;
  destinationUf: string;
  contributor: boolean;
  finalConsumer: boolean;
  ruleSet: EngineRuleSet;
  ufRate: (uf: string, groupId: number) => EngineUfRate;
  warnings: string[];
  freight: Dec;
  insurance: Dec;
  discount: Dec;
  other: Dec;
  approximate: ApproximateParts;
}

/** The line's three rates: the issuer's UF row, the destination's, and the interstate rate between them. */
interface LineRates {
  origin: EngineUfRate;
  destination: EngineUfRate;
  interstate: Dec;
}

/** The line's taxes so far, passed from step to step. */
interface LineTaxes {
  ipi: IpiGroup | null;
  icms: IcmsGroup;
  difal: DifalGroup | null;
  /** The CST/CSOSN part of the rule's description, each step appending its own. */
  description: string;
  /** Rates' and agreements' sources, in the order the line used them. */
  sources: string[];
  /** Whether the CST/CSOSN carries ST, and the operation's own ICMS that ST deducts. */
  hasSt: boolean;
  ownForSt: Dec;
}

/** One line of the document: each tax in its own step, each step reading what the earlier ones computed. */
function computeItem(input: EngineInput, line: Prepared, index: number, c: ItemContext): FiscalItem {
  const { issuer } = input;
  const net = line.vProd.minus(c.discount).plus(c.freight).plus(c.insurance).plus(c.other);
  const rates = lineRates(issuer, line, c);
  const sources = [rateSource(rates.origin)];
  if (c.destinationUf !== issuer.address.uf) sources.push(rateSource(rates.destination));
  const ipi = ipiOf(issuer, line.rule, net);
  const taxes: LineTaxes = { ipi, ...ownIcmsOf(input, line, c, rates, net, ipi?.value ?? ZERO), difal: null, sources };
  substitutionOf(line, c, rates, net, taxes);
  retainedOfLine(line, taxes);
  taxes.difal = difalOf(issuer, c, rates, taxes);
  const pisCofinsBase = Dec.max(ZERO, net.minus(taxes.icms.value));
  const pis = pisCofinsOf(input, c.ruleSet, line.rule.pisCst, line.rule.pisRate, 'pis', pisCofinsBase);
  const cofins = pisCofinsOf(input, c.ruleSet, line.rule.cofinsCst, line.rule.cofinsRate, 'cofins', pisCofinsBase);
  const ibsCbs = ibsCbsOf(c.ruleSet, line.rule, net, taxes, pis.value.plus(cofins.value));
  const approximateTaxes = approximateTaxesOf(input, line, index, c);
  return itemOf(input, line, index, c, taxes, { pis, cofins, ibsCbs, approximateTaxes });
}

/** ICMS rates of the issuer's UF and the destination's for the line's tax group, and the interstate rate (Res. SF 22/1989, 13/2012). */
function lineRates(issuer: FiscalIssuer, line: Prepared, c: ItemContext): LineRates {
  return {
    origin: c.ufRate(issuer.address.uf, line.group.id),
    destination: c.ufRate(c.destinationUf, line.group.id),
    interstate: interstateDec(issuer.address.uf, c.destinationUf, line.product.origin),
  };
}

/** IPI (RIPI, Decreto 7.212/2010 art. 190): an industrial issuer's, on the operation's value with freight, insurance and expenses. */
function ipiOf(issuer: FiscalIssuer, rule: EngineRule, net: Dec): IpiGroup | null {
  if (!issuer.industrial) return null;
  const cst = rule.ipiCst!;
  const taxed = IPI_TAXED.has(cst) && rule.ipiRate !== null && rule.ipiRate.gt(0);
  const base = taxed ? net : ZERO;
  const rate = taxed ? rule.ipiRate! : ZERO;
  return { cst, enquadramento: rule.ipiEnquadramento ?? '999', base, rate: r4(rate), value: taxed ? pct(base, rate) : ZERO };
}

/** The operation's ICMS rate: the rule's own, else internal inside the UF, 4/7/12 % between UFs. */
function operationRate(rule: EngineRule, c: ItemContext, rates: LineRates): Dec {
  return (
    rule.icmsRate ?? (c.destination === 'INTERNAL' ? rates.origin.internalRate : c.destination === 'INTERSTATE' ? rates.interstate : ZERO)
  );
}

/** The ICMS group before the line's CST or CSOSN fills it: nothing taxed. */
function untaxedIcms(origin: IcmsGroup['origin']): IcmsGroup {
  return {
    origin,
    cst: null,
    csosn: null,
    modBC: null,
    baseReduction: null,
    base: ZERO,
    rate: ZERO,
    value: ZERO,
    fcpBase: null,
    fcpRate: null,
    fcpValue: null,
    st: null,
    simplesCreditRate: null,
    simplesCreditValue: null,
  };
}

/**
 * The operation's own ICMS, by CSOSN (Simples) or CST, with the part of it ST deducts; IPI joins the
 * base when the goods go to a final consumer (LC 87/1996 art. 13 §2).
 */
function ownIcmsOf(
  input: EngineInput,
  line: Prepared,
  c: ItemContext,
  rates: LineRates,
  net: Dec,
  vIpi: Dec,
): Pick<LineTaxes, 'icms' | 'description' | 'ownForSt' | 'hasSt'> {
  const { rule } = line;
  const opRate = operationRate(rule, c, rates);
  const baseFull = c.finalConsumer ? net.plus(vIpi) : net;
  const icms = untaxedIcms(line.product.origin);
  if (input.issuer.crt === 1) {
    let csosn = line.csosn!;
    // pCredSN only to a contributor buying for resale or industrialisation (LC 123/2006 art. 23; Res. CGSN
    // 140/2018 art. 60 II): to a final consumer, contributor or not, 101 is 102 and 201 is 202.
    if ((!c.contributor || c.finalConsumer) && (csosn === '101' || csosn === '201')) csosn = csosn === '101' ? '102' : '202';
    icms.csosn = csosn;
    if ((csosn === '101' || csosn === '201') && input.simplesCreditRate) {
      icms.simplesCreditRate = r4(input.simplesCreditRate);
      icms.simplesCreditValue = pct(net, input.simplesCreditRate);
    }
    const hasSt = ST_CSOSN.has(csosn);
    return { icms, description: `CSOSN ${csosn}`, ownForSt: hasSt ? pct(baseFull, opRate) : ZERO, hasSt };
  }
  const cst = line.cst!;
  icms.cst = cst;
  let ownForSt = ZERO;
  if (TAXED_CST.has(cst)) {
    const reduction = REDUCED_CST.has(cst) ? (rule.icmsBaseReduction ?? ZERO) : ZERO;
    const base = reduction.isZero() ? baseFull : round(baseFull.times(HUNDRED.minus(reduction)).div(HUNDRED), 'amount');
    icms.modBC = 3;
    icms.baseReduction = REDUCED_CST.has(cst) ? r4(reduction) : null;
    icms.base = base;
    icms.rate = r4(opRate);
    icms.value = pct(base, opRate);
    // FCP of the UF inside it (ADCT art. 82); between UFs it belongs to the destination (ST or DIFAL).
    if (c.destination === 'INTERNAL' && rates.origin.fcpRate.gt(0) && rule.icmsRate === null) {
      icms.fcpBase = base;
      icms.fcpRate = r4(rates.origin.fcpRate);
      icms.fcpValue = pct(base, rates.origin.fcpRate);
    }
    ownForSt = icms.value;
  } else if (cst === '30') {
    ownForSt = pct(baseFull, opRate);
  }
  let description = `CST ${cst}`;
  icms.relief = reliefOf(rule, cst, pct(baseFull, opRate), icms.value);
  if (icms.relief) description += `, ICMS desonerado (motDesICMS ${icms.relief.reason})`;
  return { icms, description, ownForSt, hasSt: ST_CST.has(cst) };
}

/** ST by MVA (LC 87/1996 art. 8; Convênio ICMS 142/2018): between UFs the MVA is adjusted to the rates' gap. */
function substitutionOf(line: Prepared, c: ItemContext, rates: LineRates, net: Dec, taxes: LineTaxes): void {
  if (!taxes.hasSt) return;
  const lineSt = line.st!;
  let mva = lineSt.mva;
  const internalDest = lineSt.internalRate ?? rates.destination.internalRate;
  if (lineSt.source) taxes.sources.push(lineSt.source);
  if (c.destination === 'INTERSTATE' && rates.interstate.lt(internalDest)) {
    mva = r4(
      HUNDRED.plus(mva)
        .div(HUNDRED)
        .times(HUNDRED.minus(rates.interstate).div(HUNDRED))
        .div(HUNDRED.minus(internalDest).div(HUNDRED))
        .minus(1)
        .times(HUNDRED),
    );
  }
  const reduction = line.rule.stBaseReduction ?? ZERO;
  let base = net.plus(taxes.ipi?.value ?? ZERO).times(HUNDRED.plus(mva).div(HUNDRED));
  if (!reduction.isZero()) base = base.times(HUNDRED.minus(reduction).div(HUNDRED));
  base = round(base, 'amount');
  const fcp = rates.destination.fcpRate;
  taxes.icms.st = {
    modBCST: 4,
    mva: r4(mva),
    baseReduction: reduction.isZero() ? null : r4(reduction),
    base,
    rate: r4(internalDest),
    value: Dec.max(ZERO, pct(base, internalDest).minus(taxes.ownForSt)),
    fcpBase: fcp.gt(0) ? base : null,
    fcpRate: fcp.gt(0) ? r4(fcp) : null,
    fcpValue: fcp.gt(0) ? pct(base, fcp) : null,
  };
  taxes.description += `, ST MVA ${mva.toString()} %`;
}

/** Goods already taxed by ST: the entry's retained ST for the quantity sold (retainedGroup). */
function retainedOfLine(line: Prepared, taxes: LineTaxes): void {
  if (!line.retained) return;
  taxes.icms.retained = retainedGroup(line.retained, line.quantity);
  taxes.sources.push(taxes.icms.retained.source);
  taxes.description += ', ICMS-ST retido anteriormente';
}

/** DIFAL to a non-contributor in another UF (EC 87/2015, LC 190/2022): 100 % to the destination since 2019. */
function difalOf(issuer: FiscalIssuer, c: ItemContext, rates: LineRates, taxes: LineTaxes): DifalGroup | null {
  const { icms } = taxes;
  if (c.destination !== 'INTERSTATE' || c.contributor || issuer.crt === 1 || !icms.value.gt(0)) return null;
  const dest = rates.destination;
  const internalDest = dest.internalRate;
  const fcp = dest.fcpRate;
  let base: Dec;
  let destinationValue: Dec;
  if (dest.difalDoubleBase) {
    // Base dupla (LC 190/2022 art. 13 §1 X as the UF's law reads it): the origin's ICMS out, the destination's in, FCP included.
    base = round(icms.base.minus(icms.value).div(HUNDRED.minus(internalDest).minus(fcp).div(HUNDRED)), 'amount');
    destinationValue = Dec.max(ZERO, pct(base, internalDest).minus(icms.value));
  } else {
    base = icms.base;
    destinationValue = Dec.max(ZERO, pct(base, internalDest.minus(icms.rate)));
  }
  taxes.description += `, DIFAL ${dest.difalDoubleBase ? 'base dupla' : 'base única'}`;
  return {
    base,
    fcpBase: base,
    fcpRate: r4(fcp),
    internalRate: r4(internalDest),
    interstateRate: r4(icms.rate),
    destinationShare: HUNDRED,
    fcpValue: pct(base, fcp),
    destinationValue,
    originValue: ZERO,
  };
}

/** IBS/CBS (LC 214/2025; NT 2025.002 group UB): base without ICMS, FCP, DIFAL, PIS and COFINS. */
function ibsCbsOf(rs: EngineRuleSet, rule: EngineRule, net: Dec, taxes: LineTaxes, pisCofins: Dec): IbsCbsGroup | null {
  if (!rs.ibsCbs) return null;
  const { icms, difal } = taxes;
  const cst = rule.ibsCbsCst ?? rs.ibsCbsCst;
  const cClassTrib = rule.ibsCbsClass ?? rs.ibsCbsClass;
  const taxed = !cst.startsWith('4');
  const base = taxed
    ? Dec.max(
        ZERO,
        net
          .minus(icms.value)
          .minus(icms.fcpValue ?? ZERO)
          .minus(difal?.destinationValue ?? ZERO)
          .minus(difal?.fcpValue ?? ZERO)
          .minus(pisCofins),
      )
    : ZERO;
  const ibsUfRate = taxed ? rs.ibsUfRate : ZERO;
  const ibsMunRate = taxed ? rs.ibsMunRate : ZERO;
  const cbsRate = taxed ? rs.cbsRate : ZERO;
  const ibsUfValue = pct(base, ibsUfRate);
  const ibsMunValue = pct(base, ibsMunRate);
  return {
    cst,
    cClassTrib,
    base,
    ibsUfRate: r4(ibsUfRate),
    ibsUfValue,
    ibsMunRate: r4(ibsMunRate),
    ibsMunValue,
    ibsValue: ibsUfValue.plus(ibsMunValue),
    cbsRate: r4(cbsRate),
    cbsValue: pct(base, cbsRate),
  };
}

/** Lei 12.741/2012: the approximate taxes of the item's value (the operator's IBPT table), each sphere added to the document's parts. */
function approximateTaxesOf(input: EngineInput, line: Prepared, index: number, c: ItemContext): Dec {
  const { product } = line;
  if (!input.approximateTaxes || !product.ncm) return ZERO;
  const row = input.approximateTaxes.get(product.ncm);
  if (!row) {
    c.warnings.push(`NCM ${product.ncm} (item ${index + 1}) is not in the Lei 12.741 table in force: its vTotTrib is 0.`);
    return ZERO;
  }
  const federal = IMPORTED_ORIGINS.has(product.origin) ? row.federalImportedRate : row.federalNationalRate;
  // Each sphere rounded on its own and vTotTrib their sum, so the infCpl parts add up to it.
  const value = line.vProd.minus(c.discount);
  const parts = [pct(value, federal), pct(value, row.stateRate), pct(value, row.municipalRate)];
  c.approximate.federal = c.approximate.federal.plus(parts[0]);
  c.approximate.state = c.approximate.state.plus(parts[1]);
  c.approximate.municipal = c.approximate.municipal.plus(parts[2]);
  c.approximate.table ??= row;
  return parts[0].plus(parts[1]).plus(parts[2]);
}

/** The item: its identification, quantities, the taxes of the steps, the line's total (vProd − discounts + ST + expenses + IPI) and the rule it used. */
function itemOf(
  input: EngineInput,
  line: Prepared,
  index: number,
  c: ItemContext,
  taxes: LineTaxes,
  more: Pick<FiscalItem, 'pis' | 'cofins' | 'ibsCbs' | 'approximateTaxes'>,
): FiscalItem {
  const { product, rule, vProd } = line;
  const { icms, ipi } = taxes;
  const total = vProd
    .minus(c.discount)
    .minus(icms.relief?.deducted ? icms.relief.value : ZERO)
    .plus(icms.st?.value ?? ZERO)
    .plus(c.freight)
    .plus(c.insurance)
    .plus(c.other)
    .plus(ipi?.value ?? ZERO)
    .plus(icms.st?.fcpValue ?? ZERO);
  const factor = product.taxableFactor.isZero() ? ONE : product.taxableFactor;
  const taxableQuantity = round(line.quantity.times(factor), 'quantity');
  const contributorText = c.contributor ? 'contributor' : 'non-contributor';
  return fiscalItem(line, index, c, {
    quantity: round(line.quantity, 'quantity'),
    unitPrice: round(line.unitPrice, 'price'),
    grossTotal: vProd,
    taxableQuantity,
    taxableUnitPrice: taxableQuantity.isZero() ? ZERO : round(vProd.div(taxableQuantity), 'price'),
    icms,
    difal: taxes.difal,
    ipi,
    pis: more.pis,
    cofins: more.cofins,
    ibsCbs: more.ibsCbs,
    approximateTaxes: more.approximateTaxes,
    total,
    rule: {
      ruleId: rule.id,
      description: `${input.operation}/${c.destination}/${contributorText}: tax group ${line.group.code} → CFOP ${line.cfop}, ${taxes.description}`,
      ratesSource: `${taxes.sources.join('; ')}; rule set ${c.ruleSet.code} (${c.ruleSet.source})`,
    },
  });
}

type ItemFigures = Pick<
  FiscalItem,
  | 'quantity'
  | 'unitPrice'
  | 'grossTotal'
  | 'taxableQuantity'
  | 'taxableUnitPrice'
  | 'icms'
  | 'difal'
  | 'ipi'
  | 'pis'
  | 'cofins'
  | 'ibsCbs'
  | 'approximateTaxes'
  | 'total'
  | 'rule'
>;

/** The item as the XML and the preview show it, the same for both paths: the product's identification around the line's figures. */
function fiscalItem(line: Prepared, index: number, c: ItemContext, f: ItemFigures): FiscalItem {
  const { product, rule } = line;
  const gtin = product.gtin ?? 'SEM GTIN';
  return {
    lineNumber: index + 1,
    productId: product.id,
    salesOrderItemId: line.input.salesOrderItemId ?? null,
    code: product.code,
    gtin,
    description: product.name,
    ncm: product.ncm!,
    cest: product.cest,
    benefitCode: rule.benefitCode ?? null,
    cfop: line.cfop,
    unit: product.unit,
    quantity: f.quantity,
    unitPrice: f.unitPrice,
    grossTotal: f.grossTotal,
    taxableGtin: gtin,
    taxableUnit: product.taxableUnit ?? product.unit,
    taxableQuantity: f.taxableQuantity,
    taxableUnitPrice: f.taxableUnitPrice,
    freight: c.freight,
    insurance: c.insurance,
    discount: c.discount,
    otherExpenses: c.other,
    icms: f.icms,
    difal: f.difal,
    ipi: f.ipi,
    pis: f.pis,
    cofins: f.cofins,
    ibsCbs: f.ibsCbs,
    approximateTaxes: f.approximateTaxes,
    total: f.total,
    rule: f.rule,
  };
}

/**
 * The entry's ST figures for the quantity sold: each entry amount × sold quantity / the entry line's
 * quantity in stock units (the product's unit, the sale's too), rounded half-up to the cent. pST is the
 * rate the final consumer bears, ICMS-ST plus FCP-ST (NT 2018.005, N26a); an entry without pICMSST
 * gives it as (vICMSST + the substitute's vICMS) / vBCST.
 */
function retainedGroup(e: RetainedStEntry, quantity: Dec): NonNullable<IcmsGroup['retained']> {
  const share = (v: Dec) => round(v.times(quantity).div(e.stockQuantity), 'amount');
  const stRate =
    e.stRate ??
    (e.stBase.isZero()
      ? ZERO
      : e.stValue
          .plus(e.substituteIcms ?? ZERO)
          .times(HUNDRED)
          .div(e.stBase));
  const fcpBase = e.fcpValue ? (e.fcpBase ?? e.stBase) : null;
  const fcpRate = e.fcpValue ? (e.fcpRate ?? (fcpBase && !fcpBase.isZero() ? e.fcpValue.times(HUNDRED).div(fcpBase) : ZERO)) : null;
  return {
    base: share(e.stBase),
    rate: r4(stRate.plus(fcpRate ?? ZERO)),
    substituteValue: e.substituteIcms ? share(e.substituteIcms) : null,
    value: share(e.stValue),
    fcpBase: fcpBase ? share(fcpBase) : null,
    fcpRate: fcpRate ? r4(fcpRate) : null,
    fcpValue: e.fcpValue ? share(e.fcpValue) : null,
    entryDocumentId: e.entryDocumentId,
    source: `ICMS-ST retido: entrada ${e.number}/${e.series} de ${e.entryDate} (CNPJ ${e.supplierDocument}), a última entrada confirmada das mercadorias com ST (MOC 7.0 N26–N27d)`,
  };
}

/**
 * ICMS desonerado (MOC 7.0 N27a–N28b; NT 2023.004 indDeduzDeson): the ICMS the operation would owe
 * without the benefit less the ICMS it owes — all of it for an exemption (CST 40, 41, 50), the
 * reduction's part for CST 20. Only where the rule names the reason (motDesICMS).
 */
function reliefOf(rule: EngineRule, cst: string, fullIcms: Dec, icmsValue: Dec): IcmsGroup['relief'] {
  if (!rule.reliefReason || !RELIEF_CST.has(cst)) return null;
  return { value: Dec.max(ZERO, fullIcms.minus(icmsValue)), reason: rule.reliefReason, deducted: rule.reliefDeducted ?? false };
}

/**
 * PIS/COFINS of a line (pis-cofins.ts for the CST by operation class): by regime, ICMS out of the base
 * (STF RE 574.706, Tema 69); Simples pays them in the DAS (LC 123/2006 art. 13), so no value there.
 */
function pisCofinsOf(
  input: EngineInput,
  rs: EngineRuleSet,
  cst: string | null,
  rate: Dec | null,
  which: 'pis' | 'cofins',
  base: Dec,
): PisCofinsGroup {
  if (!rs.pisCofins) return { cst: '08', base: ZERO, rate: ZERO, value: ZERO };
  const crt = input.issuer.crt;
  const effectiveCst = cst ?? defaultPisCofinsCst(input.operation, input.regime, crt);
  if (crt !== 3 || !PIS_COFINS_RATED.has(effectiveCst)) return { cst: effectiveCst, base: ZERO, rate: ZERO, value: ZERO };
  const effectiveRate = rate ?? new Dec(PIS_COFINS_DEFAULTS[input.regime as 'LUCRO_REAL' | 'LUCRO_PRESUMIDO'][which]);
  return { cst: effectiveCst, base, rate: r4(effectiveRate), value: pct(base, effectiveRate) };
}

/** The document's totals; `issueDate` chooses vItem's convention, so vNFTot = Σ vItem (itemValueOf). */
export function totalsOf(items: FiscalItem[], issueDate: string): FiscalTotals {
  const s = (f: (i: FiscalItem) => Dec | null | undefined) => items.reduce((acc, i) => acc.plus(f(i) ?? ZERO), ZERO);
  const withIbsCbs = items.some((i) => i.ibsCbs);
  const vNF = s((i) => i.total);
  const ibs = s((i) => i.ibsCbs?.ibsValue);
  const cbs = s((i) => i.ibsCbs?.cbsValue);
  // Lines without the group add their total (vItem is absent there, their value is still part of the note).
  const vNFTot = withIbsCbs ? s((i) => itemValueOf(i, issueDate) ?? i.total) : null;
  return {
    vBC: s((i) => i.icms.base),
    vICMS: s((i) => i.icms.value),
    vICMSDeson: s((i) => i.icms.relief?.value),
    vFCPUFDest: s((i) => i.difal?.fcpValue),
    vICMSUFDest: s((i) => i.difal?.destinationValue),
    vICMSUFRemet: s((i) => i.difal?.originValue),
    vFCP: s((i) => i.icms.fcpValue),
    vBCST: s((i) => i.icms.st?.base),
    vST: s((i) => i.icms.st?.value),
    vFCPST: s((i) => i.icms.st?.fcpValue),
    vFCPSTRet: s((i) => i.icms.retained?.fcpValue),
    vProd: s((i) => i.grossTotal),
    vFrete: s((i) => i.freight),
    vSeg: s((i) => i.insurance),
    vDesc: s((i) => i.discount),
    vII: ZERO,
    vIPI: s((i) => i.ipi?.value),
    vIPIDevol: s((i) => i.returnedIpi?.value),
    vPIS: s((i) => i.pis.value),
    vCOFINS: s((i) => i.cofins.value),
    vOutro: s((i) => i.otherExpenses),
    vNF,
    vTotTrib: s((i) => i.approximateTaxes),
    ibsCbs: withIbsCbs
      ? { base: s((i) => i.ibsCbs?.base), ibsUf: s((i) => i.ibsCbs?.ibsUfValue), ibsMun: s((i) => i.ibsCbs?.ibsMunValue), ibs, cbs }
      : null,
    vNFTot,
  };
}

/*
 * The same computation in scaled integers (cents.ts): amounts in cents, rates × 10^4, quantities × 10^4,
 * unit prices × 10^10; the Decs of the contract are built once per figure at the end of each line. Lines
 * with ICMS-ST (by MVA, an agreement, or retained earlier) are left to decimal.js, as is any value with
 * more places than its scale or past 2^53 (NOT_IN_CENTS).
 */

const cents = (v: number): Dec => (v === 0 ? ZERO : decOfScaled(v, 2));

/*
 * A line's rule and rates texts are the same for every line with the same rule, CFOP and steps (and the
 * same rate rows and rule set): built once per such key. The rows are the cached ones (rule-data-cache.ts),
 * replaced on a change of version, so the texts go with them.
 */
const ruleTexts = new WeakMap<EngineRule, Map<string, string>>();
const sourceTexts = new WeakMap<EngineUfRate, Map<EngineUfRate | null, WeakMap<EngineRuleSet, string>>>();
function memo(cache: WeakMap<EngineRule, Map<string, string>>, rule: EngineRule, key: string, build: () => string): string;
function memo(
  cache: WeakMap<EngineUfRate, Map<EngineUfRate | null, WeakMap<EngineRuleSet, string>>>,
  origin: EngineUfRate,
  destination: EngineUfRate | null,
  ruleSet: EngineRuleSet,
  build: () => string,
): string;
function memo(cache: WeakMap<object, Map<unknown, unknown>>, a: object, b: unknown, c: unknown, d?: () => string): string {
  let inner = cache.get(a);
  if (!inner) cache.set(a, (inner = new Map()));
  if (typeof c === 'function') {
    let text = inner.get(b) as string | undefined;
    if (text === undefined) inner.set(b, (text = (c as () => string)()));
    return text;
  }
  let byRuleSet = inner.get(b) as WeakMap<object, string> | undefined;
  if (!byRuleSet) inner.set(b, (byRuleSet = new WeakMap()));
  let text = byRuleSet.get(c as object);
  if (text === undefined) byRuleSet.set(c as object, (text = d!()));
  return text;
}

/** Whether the document can be computed in integers (ST and inexact inputs cannot). */
function inCents(lines: Prepared[], header: Header): boolean {
  for (const l of lines) if (!l.cents || l.st || l.retained) return false;
  for (const v of [header.freight, header.insurance, header.discount, header.other]) if (scaledOf(v, 2) === undefined) return false;
  return true;
}

/** A line's figures the totals add up, in cents. */
interface LineCents {
  vProd: number;
  freight: number;
  insurance: number;
  discount: number;
  other: number;
  icmsBase: number;
  icmsValue: number;
  relief: number;
  fcp: number;
  difalFcp: number;
  difalDestination: number;
  ipi: number;
  pis: number;
  cofins: number;
  approximate: number;
  total: number;
  ibsCbs: { base: number; ibsUf: number; ibsMun: number; cbs: number } | null;
}

/** The integer path adds the Lei 12.741 parts in cents (CentsParts), not in the context. */
const NO_PARTS: ApproximateParts = Object.freeze({ federal: ZERO, state: ZERO, municipal: ZERO, table: null }) as ApproximateParts;

interface CentsParts {
  federal: number;
  state: number;
  municipal: number;
  table: EngineApproximateTax | null;
}

const pisCofinsDefaults = new Map<string, Dec>();
const pisCofinsDefault = (text: string) => {
  let d = pisCofinsDefaults.get(text);
  if (!d) pisCofinsDefaults.set(text, (d = new Dec(text)));
  return d;
};

/** The items and totals in integers, or null when a figure is not exact that way (the caller uses decimal.js). */
function itemsInCents(input: EngineInput, lines: Prepared[], header: Header, common: Common): ComputedItems | null {
  try {
    return computeInCents(input, lines, header, common);
  } catch (err) {
    if (err === NOT_IN_CENTS) return null;
    throw err;
  }
}

function computeInCents(input: EngineInput, lines: Prepared[], header: Header, common: Common): ComputedItems {
  const problems = new FiscalDataProblems();
  const weights = lines.map((l) => l.cents!.vProd - l.cents!.lineDiscount);
  const freights = allocateCents(scaledOf(header.freight, 2)!, weights);
  const insurances = allocateCents(scaledOf(header.insurance, 2)!, weights);
  const discounts = allocateWithinCents(scaledOf(header.discount, 2)!, weights);
  const others = allocateCents(scaledOf(header.other, 2)!, weights);
  const warnings: string[] = [];
  if (!input.approximateTaxes) warnings.push(approximateTableWarning(input));
  const parts: CentsParts = { federal: 0, state: 0, municipal: 0, table: null };
  const sums: LineCents[] = [];
  const items: FiscalItem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const discount = line.cents!.lineDiscount + discounts[i];
    if (discount > line.cents!.vProd) {
      problems.add(`items[${i}].discount`, 'the apportioned header discount exceeds the line value');
      continue;
    }
    const c: ItemContext = {
      destination: common.destination,
      destinationUf: common.destinationUf,
      contributor: common.contributor,
      finalConsumer: common.finalConsumer,
      ruleSet: common.ruleSet,
      ufRate: common.ufRate,
      warnings,
      freight: cents(freights[i]),
      insurance: cents(insurances[i]),
      discount: cents(discount),
      other: cents(others[i]),
      approximate: NO_PARTS,
    };
    const amounts = { vProd: line.cents!.vProd, freight: freights[i], insurance: insurances[i], discount, other: others[i] };
    items.push(itemInCents(input, line, i, c, amounts, parts, sums));
  }
  problems.throwIfAny();
  const approximate: ApproximateParts = {
    federal: cents(parts.federal),
    state: cents(parts.state),
    municipal: cents(parts.municipal),
    table: parts.table,
  };
  return { items, warnings, approximate, totals: totalsInCents(sums, input.date) };
}

/** The line's cents the steps share: its amounts, then each tax's value as it is computed. */
interface LineAmounts {
  sum: Pick<LineCents, 'vProd' | 'freight' | 'insurance' | 'discount' | 'other'>;
  net: number;
  netDec: Dec;
}

/** computeItem in integers: each step as there (ipiOf, ownIcmsOf, difalOf, pisCofinsOf, ibsCbsOf, approximateTaxesOf, itemOf), `sums` filled with the line's cents. */
function itemInCents(
  input: EngineInput,
  line: Prepared,
  index: number,
  c: ItemContext,
  sum: Pick<LineCents, 'vProd' | 'freight' | 'insurance' | 'discount' | 'other'>,
  parts: CentsParts,
  sums: LineCents[],
): FiscalItem {
  const net = sum.vProd - sum.discount + sum.freight + sum.insurance + sum.other;
  const a: LineAmounts = { sum, net, netDec: cents(net) };
  const rates = lineRates(input.issuer, line, c);
  const ipi = ipiInCents(input, line, a);
  const own = ownIcmsInCents(input, line, c, rates, a, ipi.value);
  const difal = difalInCents(input, c, rates, own);
  const pisCofins = pisCofinsInCents(input, line, c, a, own.icmsValue);
  const ibsCbs = ibsCbsInCents(
    line,
    c,
    a,
    own.icmsValue + own.fcpValue + difal.destination + difal.fcp + pisCofins.pisValue + pisCofins.cofinsValue,
  );
  const approximate = approximateInCents(input, line, index, c, sum, parts);
  const total = sum.vProd - sum.discount - (own.reliefDeducted ? own.relief : 0) + sum.freight + sum.insurance + sum.other + ipi.value;
  sums.push({
    vProd: sum.vProd,
    freight: sum.freight,
    insurance: sum.insurance,
    discount: sum.discount,
    other: sum.other,
    icmsBase: own.icmsBase,
    icmsValue: own.icmsValue,
    relief: own.relief,
    fcp: own.fcpValue,
    difalFcp: difal.fcp,
    difalDestination: difal.destination,
    ipi: ipi.value,
    pis: pisCofins.pisValue,
    cofins: pisCofins.cofinsValue,
    approximate,
    total,
    ibsCbs: ibsCbs.cents,
  });
  const description = own.description + difal.description;
  return itemOfCents(input, line, index, c, rates, {
    sum,
    total,
    approximate,
    description,
    groups: { icms: own.icms, difal: difal.group, ipi: ipi.group, pis: pisCofins.pis, cofins: pisCofins.cofins, ibsCbs: ibsCbs.group },
  });
}

/** ipiOf in cents: the industrial issuer's IPI on the line's net value. */
function ipiInCents(input: EngineInput, line: Prepared, a: LineAmounts): { group: IpiGroup | null; value: number } {
  if (!input.issuer.industrial) return { group: null, value: 0 };
  const { rule } = line;
  const cst = rule.ipiCst!;
  const taxed = IPI_TAXED.has(cst) && rule.ipiRate !== null && rule.ipiRate.gt(0);
  const rate = taxed ? rule.ipiRate! : ZERO;
  const value = taxed ? taxOf(a.net, rate4Of(rate)) : 0;
  return {
    group: { cst, enquadramento: rule.ipiEnquadramento ?? '999', base: taxed ? a.netDec : ZERO, rate: r4(rate), value: cents(value) },
    value,
  };
}

interface OwnIcmsCents {
  icms: IcmsGroup;
  icmsBase: number;
  icmsValue: number;
  fcpValue: number;
  relief: number;
  reliefDeducted: boolean;
  description: string;
}

/** ownIcmsOf in cents: CSOSN for the Simples issuer, CST (base reduction, FCP, relief) otherwise; a line with ST is decimal.js's. */
function ownIcmsInCents(
  input: EngineInput,
  line: Prepared,
  c: ItemContext,
  rates: LineRates,
  a: LineAmounts,
  ipiValue: number,
): OwnIcmsCents {
  const { issuer } = input;
  const { rule } = line;
  const net = a.net;
  const opRate = operationRate(rule, c, rates);
  const op4 = rate4Of(opRate);
  const baseFull = c.finalConsumer ? net + ipiValue : net;
  const icms = untaxedIcms(line.product.origin);
  let icmsBase = 0;
  let icmsValue = 0;
  let fcpValue = 0;
  let relief = 0;
  let reliefDeducted = false;
  let description: string;
  if (issuer.crt === 1) {
    let csosn = line.csosn!;
    if ((!c.contributor || c.finalConsumer) && (csosn === '101' || csosn === '201')) csosn = csosn === '101' ? '102' : '202';
    icms.csosn = csosn;
    if ((csosn === '101' || csosn === '201') && input.simplesCreditRate) {
      icms.simplesCreditRate = r4(input.simplesCreditRate);
      icms.simplesCreditValue = cents(taxOf(net, rate4Of(input.simplesCreditRate)));
    }
    if (ST_CSOSN.has(csosn)) throw NOT_IN_CENTS;
    description = `CSOSN ${csosn}`;
  } else {
    const cst = line.cst!;
    icms.cst = cst;
    if (TAXED_CST.has(cst)) {
      const reduction = REDUCED_CST.has(cst) ? (rule.icmsBaseReduction ?? ZERO) : ZERO;
      const reduction4 = rate4Of(reduction);
      icmsBase = reduction4 === 0 ? baseFull : mulDivRound(baseFull, 1_000_000 - reduction4, 1_000_000);
      icmsValue = taxOf(icmsBase, op4);
      icms.modBC = 3;
      icms.baseReduction = REDUCED_CST.has(cst) ? r4(reduction) : null;
      icms.base = cents(icmsBase);
      icms.rate = r4(opRate);
      icms.value = cents(icmsValue);
      if (c.destination === 'INTERNAL' && rates.origin.fcpRate.gt(0) && rule.icmsRate === null) {
        fcpValue = taxOf(icmsBase, rate4Of(rates.origin.fcpRate));
        icms.fcpBase = icms.base;
        icms.fcpRate = r4(rates.origin.fcpRate);
        icms.fcpValue = cents(fcpValue);
      }
    }
    if (ST_CST.has(cst)) throw NOT_IN_CENTS;
    description = `CST ${cst}`;
    icms.relief = null;
    if (rule.reliefReason && RELIEF_CST.has(cst)) {
      relief = Math.max(0, taxOf(baseFull, op4) - icmsValue);
      reliefDeducted = rule.reliefDeducted ?? false;
      icms.relief = { value: cents(relief), reason: rule.reliefReason, deducted: reliefDeducted };
      description += `, ICMS desonerado (motDesICMS ${rule.reliefReason})`;
    }
  }

  return { icms, icmsBase, icmsValue, fcpValue, relief, reliefDeducted, description };
}

/** difalOf in cents: the interstate sale to a non-contributor (single or double base); its words go after the ICMS's. */
function difalInCents(
  input: EngineInput,
  c: ItemContext,
  rates: LineRates,
  own: OwnIcmsCents,
): { group: DifalGroup | null; fcp: number; destination: number; description: string } {
  const { icmsBase, icmsValue, icms } = own;
  if (!(c.destination === 'INTERSTATE' && !c.contributor && input.issuer.crt !== 1 && icmsValue > 0))
    return { group: null, fcp: 0, destination: 0, description: '' };
  const dest = rates.destination;
  const internal4 = rate4Of(dest.internalRate);
  const fcp4 = rate4Of(dest.fcpRate);
  let base: number;
  let destination: number;
  if (dest.difalDoubleBase) {
    const share = 1_000_000 - internal4 - fcp4;
    if (share <= 0) throw NOT_IN_CENTS;
    base = mulDivRound(icmsBase - icmsValue, 1_000_000, share);
    destination = Math.max(0, taxOf(base, internal4) - icmsValue);
  } else {
    base = icmsBase;
    destination = Math.max(0, taxOf(base, internal4 - rate4Of(icms.rate)));
  }
  const fcp = taxOf(base, fcp4);
  const baseDec = base === icmsBase ? icms.base : cents(base);
  const group: DifalGroup = {
    base: baseDec,
    fcpBase: baseDec,
    fcpRate: r4(dest.fcpRate),
    internalRate: r4(dest.internalRate),
    interstateRate: r4(icms.rate),
    destinationShare: HUNDRED,
    fcpValue: cents(fcp),
    destinationValue: cents(destination),
    originValue: ZERO,
  };
  return { group, fcp, destination, description: `, DIFAL ${dest.difalDoubleBase ? 'base dupla' : 'base única'}` };
}

/** pisCofinsOf in cents: on the net value less the ICMS, at the rule's or the regime's rates. */
function pisCofinsInCents(
  input: EngineInput,
  line: Prepared,
  c: ItemContext,
  a: LineAmounts,
  icmsValue: number,
): { pis: PisCofinsGroup; pisValue: number; cofins: PisCofinsGroup; cofinsValue: number } {
  const { issuer } = input;
  const { rule } = line;
  const net = a.net;
  const pisCofinsBase = Math.max(0, net - icmsValue);
  const pisCofinsBaseDec = cents(pisCofinsBase);
  const pisCofins = (cst: string | null, rate: Dec | null, which: 'pis' | 'cofins'): [PisCofinsGroup, number] => {
    if (!c.ruleSet.pisCofins) return [{ cst: '08', base: ZERO, rate: ZERO, value: ZERO }, 0];
    const crt = issuer.crt;
    const effectiveCst = cst ?? defaultPisCofinsCst(input.operation, input.regime, crt);
    if (crt !== 3 || !PIS_COFINS_RATED.has(effectiveCst)) return [{ cst: effectiveCst, base: ZERO, rate: ZERO, value: ZERO }, 0];
    const effectiveRate = rate ?? pisCofinsDefault(PIS_COFINS_DEFAULTS[input.regime as 'LUCRO_REAL' | 'LUCRO_PRESUMIDO'][which]);
    const value = taxOf(pisCofinsBase, rate4Of(effectiveRate));
    return [{ cst: effectiveCst, base: pisCofinsBaseDec, rate: r4(effectiveRate), value: cents(value) }, value];
  };
  const [pis, pisValue] = pisCofins(rule.pisCst, rule.pisRate, 'pis');
  const [cofins, cofinsValue] = pisCofins(rule.cofinsCst, rule.cofinsRate, 'cofins');

  return { pis, pisValue, cofins, cofinsValue };
}

/** ibsCbsOf in cents: the reform's IBS (UF, municipality) and CBS on the net value less the other taxes (`deducted`). */
function ibsCbsInCents(
  line: Prepared,
  c: ItemContext,
  a: LineAmounts,
  deducted: number,
): { group: IbsCbsGroup | null; cents: LineCents['ibsCbs'] } {
  const { rule } = line;
  const rs = c.ruleSet;
  if (!rs.ibsCbs) return { group: null, cents: null };
  const cst = rule.ibsCbsCst ?? rs.ibsCbsCst;
  const cClassTrib = rule.ibsCbsClass ?? rs.ibsCbsClass;
  const taxed = !cst.startsWith('4');
  const base = taxed ? Math.max(0, a.net - deducted) : 0;
  const ibsUfRate = taxed ? rs.ibsUfRate : ZERO;
  const ibsMunRate = taxed ? rs.ibsMunRate : ZERO;
  const cbsRate = taxed ? rs.cbsRate : ZERO;
  const ibsUf = taxOf(base, rate4Of(ibsUfRate));
  const ibsMun = taxOf(base, rate4Of(ibsMunRate));
  const cbs = taxOf(base, rate4Of(cbsRate));
  return {
    cents: { base, ibsUf, ibsMun, cbs },
    group: {
      cst,
      cClassTrib,
      base: cents(base),
      ibsUfRate: r4(ibsUfRate),
      ibsUfValue: cents(ibsUf),
      ibsMunRate: r4(ibsMunRate),
      ibsMunValue: cents(ibsMun),
      ibsValue: cents(ibsUf + ibsMun),
      cbsRate: r4(cbsRate),
      cbsValue: cents(cbs),
    },
  };
}

/** approximateTaxesOf in cents: Lei 12.741's federal, state and municipal parts of the line, added to the document's. */
function approximateInCents(
  input: EngineInput,
  line: Prepared,
  index: number,
  c: ItemContext,
  sum: LineAmounts['sum'],
  parts: CentsParts,
): number {
  const { product } = line;
  if (!input.approximateTaxes || !product.ncm) return 0;
  const row = input.approximateTaxes.get(product.ncm);
  if (!row) {
    c.warnings.push(`NCM ${product.ncm} (item ${index + 1}) is not in the Lei 12.741 table in force: its vTotTrib is 0.`);
    return 0;
  }
  const federal = IMPORTED_ORIGINS.has(product.origin) ? row.federalImportedRate : row.federalNationalRate;
  const value = sum.vProd - sum.discount;
  const f = taxOf(value, rate4Of(federal));
  const st = taxOf(value, rate4Of(row.stateRate));
  const m = taxOf(value, rate4Of(row.municipalRate));
  parts.federal += f;
  parts.state += st;
  parts.municipal += m;
  parts.table ??= row;
  return f + st + m;
}

/** itemOf in cents: the item as the XML and the preview show it, its texts memoised per rule and rates. */
function itemOfCents(
  input: EngineInput,
  line: Prepared,
  index: number,
  c: ItemContext,
  rates: LineRates,
  f: {
    sum: LineAmounts['sum'];
    total: number;
    approximate: number;
    description: string;
    groups: Pick<FiscalItem, 'icms' | 'difal' | 'ipi' | 'pis' | 'cofins' | 'ibsCbs'>;
  },
): FiscalItem {
  const { issuer } = input;
  const { rule, product } = line;
  const { sum, total, approximate, description } = f;
  const interstate = c.destinationUf !== issuer.address.uf;
  const factor = product.taxableFactor.isZero() ? ONE : product.taxableFactor;
  const taxableQuantity = mulDivRound(line.cents!.quantity, factor6Of(factor), 1_000_000);
  if (taxableQuantity < 0) throw NOT_IN_CENTS;
  const contributorText = c.contributor ? 'contributor' : 'non-contributor';
  return fiscalItem(line, index, c, {
    // Exact at their scales (lineCents), so the line's own Decs are what rounding them would give.
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    grossTotal: line.vProd,
    taxableQuantity: taxableQuantity === line.cents!.quantity ? line.quantity : decOfScaled(taxableQuantity, 4),
    taxableUnitPrice: taxableQuantity === 0 ? ZERO : decOfScaled(mulDivRound(sum.vProd, 1e12, taxableQuantity), 10),
    icms: f.groups.icms,
    difal: f.groups.difal,
    ipi: f.groups.ipi,
    pis: f.groups.pis,
    cofins: f.groups.cofins,
    ibsCbs: f.groups.ibsCbs,
    approximateTaxes: cents(approximate),
    total: cents(total),
    rule: {
      ruleId: rule.id,
      description: memo(
        ruleTexts,
        rule,
        `${line.cfop}|${description}`,
        () => `${input.operation}/${c.destination}/${contributorText}: tax group ${line.group.code} → CFOP ${line.cfop}, ${description}`,
      ),
      ratesSource: memo(
        sourceTexts,
        rates.origin,
        interstate ? rates.destination : null,
        c.ruleSet,
        // Built once per key: the texts of the rows the line used.
        () =>
          `${rateSource(rates.origin)}${interstate ? `; ${rateSource(rates.destination)}` : ''}; rule set ${c.ruleSet.code} (${c.ruleSet.source})`,
      ),
    },
  });
}

/** totalsOf in cents: the sums of the lines' figures (no line here has ST, a retained ST or a returned IPI). */
function totalsInCents(lines: LineCents[], issueDate: string): FiscalTotals {
  const s = (f: (l: LineCents) => number) => {
    let acc = 0;
    for (const l of lines) acc += f(l);
    if (!Number.isSafeInteger(acc)) throw NOT_IN_CENTS;
    return cents(acc);
  };
  const withIbsCbs = lines.some((l) => l.ibsCbs);
  const reform = reformTaxesInItemValue(issueDate);
  const ibs = (l: LineCents) => (l.ibsCbs ? l.ibsCbs.ibsUf + l.ibsCbs.ibsMun : 0);
  const cbs = (l: LineCents) => l.ibsCbs?.cbs ?? 0;
  return {
    vBC: s((l) => l.icmsBase),
    vICMS: s((l) => l.icmsValue),
    vICMSDeson: s((l) => l.relief),
    vFCPUFDest: s((l) => l.difalFcp),
    vICMSUFDest: s((l) => l.difalDestination),
    vICMSUFRemet: ZERO,
    vFCP: s((l) => l.fcp),
    vBCST: ZERO,
    vST: ZERO,
    vFCPST: ZERO,
    vFCPSTRet: ZERO,
    vProd: s((l) => l.vProd),
    vFrete: s((l) => l.freight),
    vSeg: s((l) => l.insurance),
    vDesc: s((l) => l.discount),
    vII: ZERO,
    vIPI: s((l) => l.ipi),
    vIPIDevol: ZERO,
    vPIS: s((l) => l.pis),
    vCOFINS: s((l) => l.cofins),
    vOutro: s((l) => l.other),
    vNF: s((l) => l.total),
    vTotTrib: s((l) => l.approximate),
    ibsCbs: withIbsCbs
      ? {
          base: s((l) => l.ibsCbs?.base ?? 0),
          ibsUf: s((l) => l.ibsCbs?.ibsUf ?? 0),
          ibsMun: s((l) => l.ibsCbs?.ibsMun ?? 0),
          ibs: s(ibs),
          cbs: s(cbs),
        }
      : null,
    vNFTot: withIbsCbs ? s((l) => (l.ibsCbs && reform ? l.total + ibs(l) + cbs(l) : l.total)) : null,
  };
}
