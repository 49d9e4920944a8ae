import { dec, Dec, DecimalInput, round } from '../../core/decimal';
import { BusinessRuleError, FieldError } from '../../core/errors';
import type { NfeContribution, NfeIcms, NfeItem, NfeParty, ParsedNfe } from '../fiscal-xml';
import { destinationOf, totalsOf } from './engine';
import { PIS_COFINS_RATED, purchaseReturnCst, saleReturnCst } from './pis-cofins';
import type {
  ComputedFiscalDocument,
  FiscalDestination,
  FiscalIssuer,
  FiscalItem,
  FiscalRecipient,
  IbsCbsGroup,
  IcmsGroup,
  IcmsStGroup,
  IpiGroup,
  PisCofinsGroup,
} from './fiscal-document';

/*
 * A devolução built from the original NF-e (SPEC §8, §12.4): the returned lines keep the original
 * values (unit price, discount, freight, insurance and other-expense shares) and taxes (ICMS, FCP,
 * ICMS-ST, FCP-ST, IPI, PIS, COFINS, IBS/CBS) in proportion to the quantity returned. Proportions are
 * cumulative — a line's share is round(v × (before + now) / Q) − round(v × before / Q) — so the
 * returns of one line add up to the original to the cent. No tax rule is chosen: the original decided.
 *  - SALE: the original is our own NF-e/NFC-e; we issue the entry devolução (tpNF 0) to the customer.
 *  - PURCHASE: the original is a supplier's NF-e we received; we issue the exit devolução (tpNF 1).
 */

export type ReturnSide = 'SALE' | 'PURCHASE';

export interface ReturnLine {
  /** nItem of the line in the original document. */
  lineNumber: number;
  /** Quantity returned now, in the original's commercial unit (qCom). */
  quantity: DecimalInput;
  /** Quantity of this original line already returned by earlier devoluções (the last return takes the residue). */
  alreadyReturned?: DecimalInput;
  productId: number;
  salesOrderItemId?: number | null;
  /** PURCHASE: the CFOP our entry booked (1102, 1403, 1551…); absent → derived from the supplier's CFOP. */
  entryCfop?: string | null;
}

export interface ReturnDocumentInput {
  original: ParsedNfe;
  side: ReturnSide;
  /** Our filial (fiscal `loadFiscalIssuer`). */
  issuer: FiscalIssuer;
  /** The customer (fiscal `loadFiscalRecipient`) or the supplier (`recipientFromParty(original.issuer)`). */
  recipient: FiscalRecipient;
  lines: ReturnLine[];
  /** YYYY-MM-DD. */
  date: string;
  operationNature?: string;
}

const ZERO = new Dec(0);
const HUNDRED = new Dec(100);

/** Sale CFOP (last three digits) → the entry CFOP of its return (CFOP table, groups 1.200/1.400). */
const SALE_RETURN: Record<string, string> = {
  '101': '201',
  '102': '202',
  '103': '203',
  '104': '204',
  '105': '203',
  '106': '204',
  '401': '410',
  '403': '411',
  '404': '411',
  '405': '411',
  '501': '503',
  '502': '504',
  '120': '201',
  '122': '202',
  '123': '202',
};
/** Entry CFOP (last three digits) → the exit CFOP of its return to the supplier (groups 5.200/5.400/5.550). */
const PURCHASE_RETURN: Record<string, string> = {
  '101': '201',
  '102': '202',
  '401': '410',
  '403': '411',
  '406': '412',
  '407': '413',
  '551': '553',
  '556': '556',
  '122': '202',
  '118': '202',
};
/** A supplier's exit CFOP → the entry CFOP it became at our side (the usual pairs; pass `entryCfop` when the entry booked otherwise). */
const SUPPLIER_TO_ENTRY: Record<string, string> = {
  '101': '101',
  '102': '102',
  '401': '401',
  '403': '403',
  '405': '403',
  '404': '403',
  '120': '102',
  '122': '102',
  '123': '102',
};
/** ICMS already retained by ST (CST 60 / CSOSN 500): the sale's return is 1.411/2.411 whatever CFOP the sale used. */
const ST_RETAINED = new Set(['60', '500']);

const firstDigit = (side: ReturnSide, destination: FiscalDestination) =>
  side === 'SALE'
    ? destination === 'INTERNAL'
      ? '1'
      : destination === 'INTERSTATE'
        ? '2'
        : '3'
    : destination === 'INTERNAL'
      ? '5'
      : destination === 'INTERSTATE'
        ? '6'
        : '7';

/**
 * The devolução's CFOP: sale 5102/6102 → 1202/2202, ST 5405/6404 or CST 60 → 1411/2411; purchase
 * 1102/2102 → 5202/6202, 1403/2403 → 5411/6411, fixed assets 1551/2551 → 5553/6553. null when the
 * original CFOP has no devolução counterpart here.
 */
export function returnCfop(
  originalCfop: string,
  side: ReturnSide,
  destination: FiscalDestination,
  icmsCode: string | null = null,
): string | null {
  const tail = originalCfop.slice(1);
  let mapped: string | undefined;
  if (side === 'SALE') mapped = icmsCode && ST_RETAINED.has(icmsCode) ? '411' : SALE_RETURN[tail];
  else mapped = PURCHASE_RETURN[['1', '2', '3'].includes(originalCfop[0]) ? tail : (SUPPLIER_TO_ENTRY[tail] ?? '')];
  return mapped ? `${firstDigit(side, destination)}${mapped}` : null;
}

/** A party of an NF-e (the supplier as its issuer) as our document's recipient. */
export function recipientFromParty(party: NfeParty): FiscalRecipient {
  const a = party.address;
  return {
    customerId: null,
    personType: party.documentKind === 'FOREIGN' ? 'FOREIGN' : party.documentKind === 'CPF' ? 'PF' : 'PJ',
    document: party.document,
    name: party.name,
    ieIndicator: party.stateRegistration && party.stateRegistration.toUpperCase() !== 'ISENTO' ? 1 : party.stateRegistration ? 2 : 9,
    stateRegistration: party.stateRegistration && party.stateRegistration.toUpperCase() !== 'ISENTO' ? party.stateRegistration : null,
    email: party.email,
    address:
      a && a.cityCode && (a.uf ?? party.uf)
        ? {
            street: a.street ?? '',
            number: a.number ?? 'S/N',
            complement: null,
            district: a.district ?? '',
            municipalityCode: a.cityCode,
            municipalityName: a.city ?? '',
            uf: (a.uf ?? party.uf)!,
            postalCode: a.zipCode,
            countryCode: '1058',
            countryName: 'BRASIL',
            phone: null,
          }
        : null,
  };
}

/** The cumulative share of one original value (see the header). */
class Share {
  constructor(
    private readonly before: Dec,
    private readonly now: Dec,
    private readonly whole: Dec,
  ) {}
  of(v: Dec | null | undefined): Dec {
    if (!v || v.isZero()) return ZERO;
    const upTo = (q: Dec) => round(v.times(q).div(this.whole), 'amount');
    return upTo(this.before.plus(this.now)).minus(upTo(this.before));
  }
  ofOrNull(v: Dec | null | undefined): Dec | null {
    return v === null || v === undefined ? null : this.of(v);
  }
  get percent(): Dec {
    return round(this.now.times(HUNDRED).div(this.whole), 2);
  }
}

function icmsOf(o: NfeIcms | null, s: Share, issuer: FiscalIssuer, lineNet: Dec): IcmsGroup {
  const g: IcmsGroup = {
    origin: Number(o?.origin ?? 0),
    cst: null,
    csosn: null,
    modBC: o?.baseMode ? Number(o.baseMode) : null,
    baseReduction: o?.baseReduction ?? null,
    base: s.of(o?.base),
    rate: o?.rate ?? ZERO,
    value: s.of(o?.value),
    fcpBase: s.ofOrNull(o?.fcpBase),
    fcpRate: o?.fcpRate ?? null,
    fcpValue: s.ofOrNull(o?.fcpValue),
    st: null,
    simplesCreditRate: null,
    simplesCreditValue: null,
  };
  if (o && (o.stBase || o.stValue)) {
    const st: IcmsStGroup = {
      modBCST: o.stBaseMode ? Number(o.stBaseMode) : 4,
      mva: o.stMva,
      baseReduction: o.stBaseReduction,
      base: s.of(o.stBase),
      rate: o.stRate ?? ZERO,
      value: s.of(o.stValue),
      fcpBase: s.ofOrNull(o.fcpStBase),
      fcpRate: o.fcpStRate,
      fcpValue: s.ofOrNull(o.fcpStValue),
    };
    g.st = st;
  }
  const code = o?.cst ?? o?.csosn ?? null;
  // The ST retained earlier the original declared (CST 60 / CSOSN 500) comes back in the same proportion.
  if (o && ST_RETAINED.has(code ?? '') && o.stRetainedBase && o.stRetainedValue) {
    g.retained = {
      base: s.of(o.stRetainedBase),
      rate: o.stRetainedRate ?? ZERO,
      substituteValue: s.ofOrNull(o.stRetainedSubstitute),
      value: s.of(o.stRetainedValue),
      fcpBase: o.fcpStRetainedValue ? s.ofOrNull(o.fcpStRetainedBase) : null,
      fcpRate: o.fcpStRetainedValue ? o.fcpStRetainedRate : null,
      fcpValue: o.fcpStRetainedValue ? s.of(o.fcpStRetainedValue) : null,
      entryDocumentId: null,
      source: 'ICMS-ST retido: a parte devolvida do documento original',
    };
  }
  if (issuer.crt === 3 || issuer.crt === 2) {
    if (o?.cst) g.cst = o.cst;
    else if (o?.csosn === '500') g.cst = '60';
    else {
      // A Simples supplier's CSOSN: our regime-normal devolução gives back the credit it allowed (pCredSN) as CST 90.
      g.cst = '90';
      const credit = s.of(o?.snCreditValue);
      g.modBC = 3;
      g.base = credit.gt(0) ? lineNet : ZERO;
      g.rate = credit.gt(0) ? (o?.snCreditRate ?? ZERO) : ZERO;
      g.value = credit;
    }
  } else if (o?.csosn) {
    g.csosn = o.csosn;
    g.simplesCreditRate = o.snCreditRate;
    g.simplesCreditValue = s.ofOrNull(o.snCreditValue);
  } else {
    // A regime-normal original returned by a Simples filial: the original's ICMS (and ST) as CSOSN 900, retained ST as 500.
    g.csosn = code === '60' ? '500' : '900';
    if (g.csosn === '900' && g.base.gt(0)) g.modBC = g.modBC ?? 3;
  }
  return g;
}

/**
 * PIS/COFINS of a returned line (pis-cofins.ts): the original's values in proportion, under the CST of
 * the devolução's own direction — a sale comes back as an entry (50 with the credit in the
 * non-cumulative regime, else 98/99 without values), a purchase goes back as an exit (49, reversing
 * the credit taken on entry). Never the original's exit CST on our entry.
 */
function contributionOf(o: NfeContribution | null, s: Share, side: ReturnSide, issuer: FiscalIssuer): PisCofinsGroup {
  const cst = side === 'SALE' ? saleReturnCst(o?.cst ?? null, issuer.taxRegime, issuer.crt) : purchaseReturnCst();
  // The exit of a purchase returned shows the credit it reverses: only a regime-normal filial took one, on a taxed purchase.
  const valued = cst === '49' ? issuer.crt === 3 && PIS_COFINS_RATED.has(o?.cst ?? '') : PIS_COFINS_RATED.has(cst);
  if (!o || !valued) return { cst, base: ZERO, rate: ZERO, value: ZERO };
  return { cst, base: s.of(o.base), rate: o.rate ?? ZERO, value: s.of(o.value) };
}

function ibsCbsOf(item: NfeItem, s: Share): IbsCbsGroup | null {
  const r = item.taxes.ibsCbs;
  const g = r?.general;
  if (!r || !g) return null;
  const ibsUfValue = s.of(g.ibsState.value);
  const ibsMunValue = s.of(g.ibsMunicipal.value);
  return {
    cst: r.cst,
    cClassTrib: r.classCode,
    base: s.of(g.base),
    ibsUfRate: g.ibsState.rate,
    ibsUfValue,
    ibsMunRate: g.ibsMunicipal.rate,
    ibsMunValue,
    ibsValue: ibsUfValue.plus(ibsMunValue),
    cbsRate: g.cbs.rate,
    cbsValue: s.of(g.cbs.value),
  };
}

/** The devolução document, in the contract the emission path consumes; 422 naming every line that cannot be returned. */
export function buildReturnDocument(input: ReturnDocumentInput): ComputedFiscalDocument {
  const { original, side, issuer, recipient } = input;
  const errors = partyErrors(input);
  const destination = destinationOf(55, issuer.address.uf, recipient);
  const items = returnedItems(input, destination, errors);
  if (errors.length) {
    throw new BusinessRuleError(
      'RETURN_NOT_POSSIBLE',
      `The devolução cannot be built: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      { errors },
    );
  }
  return {
    model: 55,
    operation: 'RETURN',
    operationNature: input.operationNature ?? (side === 'SALE' ? 'Devolução de venda' : 'Devolução de compra'),
    direction: side === 'SALE' ? 0 : 1,
    purpose: 4,
    destination,
    finalConsumer: side === 'SALE' ? original.ide.finalConsumer === '1' : recipient.ieIndicator !== 1,
    presence: 0,
    issueDate: input.date,
    ruleSetId: 'ORIGINAL',
    issuer,
    recipient,
    items,
    totals: totalsOf(items, input.date),
    warnings: [],
    references: [original.accessKey],
  };
}

/** A sale's original must be ours, a purchase's addressed to us; and something must be returned. */
function partyErrors({ original, side, issuer, lines }: ReturnDocumentInput): FieldError[] {
  const errors: FieldError[] = [];
  const ours = (doc: string | null | undefined) => !!doc && doc === issuer.document;
  if (side === 'SALE' && !ours(original.issuer.document))
    errors.push({ path: 'original', message: `NF-e ${original.accessKey} was not issued by this filial` });
  if (side === 'PURCHASE' && !ours(original.recipient?.document))
    errors.push({ path: 'original', message: `NF-e ${original.accessKey} is not addressed to this filial` });
  if (!lines.length) errors.push({ path: 'items', message: 'at least one item' });
  return errors;
}

/** A line that can be returned: the original's item, the quantities returned before and now, the devolução's CFOP. */
interface ReturnableLine {
  line: ReturnLine;
  o: NfeItem;
  before: Dec;
  now: Dec;
  cfop: string;
}

/** The returned lines as the devolução's items, numbered anew; each line that cannot be returned named in `errors`. */
function returnedItems(input: ReturnDocumentInput, destination: FiscalDestination, errors: FieldError[]): FiscalItem[] {
  const byNumber = new Map(input.original.items.map((i) => [i.lineNumber, i]));
  const seen = new Set<number>();
  const items: FiscalItem[] = [];
  input.lines.forEach((line, idx) => {
    const returnable = checkedLine(input, destination, { line, path: `items[${idx}]`, byNumber, seen }, errors);
    if (returnable) items.push(returnedItem(input, returnable, items.length + 1));
  });
  return items;
}

/** One requested line checked against the original (its item, listed once, a positive quantity within what is left, a CFOP). */
function checkedLine(
  { side }: ReturnDocumentInput,
  destination: FiscalDestination,
  { line, path, byNumber, seen }: { line: ReturnLine; path: string; byNumber: Map<number, NfeItem>; seen: Set<number> },
  errors: FieldError[],
): ReturnableLine | null {
  const fail = (error: FieldError) => (errors.push(error), null);
  const o = byNumber.get(line.lineNumber);
  if (!o) return fail({ path: `${path}.lineNumber`, message: `the original has no item ${line.lineNumber}` });
  if (seen.has(line.lineNumber)) return fail({ path: `${path}.lineNumber`, message: `item ${line.lineNumber} is listed twice` });
  seen.add(line.lineNumber);
  const now = dec(line.quantity);
  const before = dec(line.alreadyReturned ?? 0);
  if (now.lte(0)) return fail({ path: `${path}.quantity`, message: 'must be positive' });
  if (before.plus(now).gt(o.quantity)) {
    return fail({
      path: `${path}.quantity`,
      message: `item ${line.lineNumber}: ${now.toString()} returned now and ${before.toString()} before exceed the ${o.quantity.toString()} of the original`,
    });
  }
  const icms = o.taxes.icms;
  const cfopBase = side === 'PURCHASE' && line.entryCfop ? line.entryCfop : o.cfop;
  const cfop = returnCfop(cfopBase, side, destination, icms?.cst ?? icms?.csosn ?? null);
  if (!cfop) return fail({ path: `${path}.cfop`, message: `CFOP ${cfopBase} of item ${line.lineNumber} has no devolução CFOP here` });
  return { line, o, before, now, cfop };
}

/**
 * The IPI of a returned line: an IPI contributor returns it in its own IPI group (`ipi`); anyone else in
 * impostoDevol (`returnedIpi`, vIPIDevol).
 */
function ipiOf(
  o: NfeItem,
  s: Share,
  side: ReturnSide,
  issuer: FiscalIssuer,
): { ipi: IpiGroup | null; returnedIpi: { percent: Dec; value: Dec } | null } {
  const ipiOrig = o.taxes.ipi;
  if (!ipiOrig?.value || !ipiOrig.value.gt(0)) return { ipi: null, returnedIpi: null };
  if (!issuer.industrial) return { ipi: null, returnedIpi: { percent: s.percent, value: s.of(ipiOrig.value) } };
  return {
    ipi: {
      cst: side === 'PURCHASE' ? '99' : (ipiOrig.cst ?? '99'),
      enquadramento: ipiOrig.enquadramento ?? '999',
      base: s.of(ipiOrig.base),
      rate: ipiOrig.rate ?? ZERO,
      value: s.of(ipiOrig.value),
    },
    returnedIpi: null,
  };
}

/** A returnable line as the devolução's item: the original's values and taxes in the proportion returned. */
function returnedItem(
  { original, side, issuer }: ReturnDocumentInput,
  { line, o, before, now, cfop }: ReturnableLine,
  lineNumber: number,
): FiscalItem {
  const s = new Share(before, now, o.quantity);
  const grossTotal = s.of(o.total);
  const discount = s.of(o.discount);
  const freight = s.of(o.freight);
  const insurance = s.of(o.insurance);
  const other = s.of(o.otherExpenses);
  const icms = icmsOf(o.taxes.icms, s, issuer, grossTotal.minus(discount).plus(freight).plus(insurance).plus(other));
  const { ipi, returnedIpi } = ipiOf(o, s, side, issuer);
  const ibsCbs = ibsCbsOf(o, s);
  const pis = contributionOf(o.taxes.pis, s, side, issuer);
  const cofins = contributionOf(o.taxes.cofins, s, side, issuer);
  const vSt = icms.st?.value ?? ZERO;
  const vFcpSt = icms.st?.fcpValue ?? ZERO;
  const total = grossTotal
    .minus(discount)
    .plus(vSt)
    .plus(freight)
    .plus(insurance)
    .plus(other)
    .plus(ipi?.value ?? ZERO)
    .plus(vFcpSt)
    .plus(returnedIpi?.value ?? ZERO);
  const taxableQuantity = o.taxableQuantity ? round(o.taxableQuantity.times(now).div(o.quantity), 'quantity') : round(now, 'quantity');
  return {
    lineNumber,
    productId: line.productId,
    salesOrderItemId: line.salesOrderItemId ?? null,
    code: o.code,
    gtin: o.gtin ?? 'SEM GTIN',
    description: o.description,
    ncm: o.ncm ?? '00000000',
    cest: o.cest,
    cfop,
    unit: o.unit,
    quantity: round(now, 'quantity'),
    unitPrice: o.unitPrice,
    grossTotal,
    taxableGtin: o.taxableGtin ?? o.gtin ?? 'SEM GTIN',
    taxableUnit: o.taxableUnit ?? o.unit,
    taxableQuantity,
    taxableUnitPrice: o.taxableUnitPrice ?? o.unitPrice,
    freight,
    insurance,
    discount,
    otherExpenses: other,
    icms,
    difal: null,
    ipi,
    pis,
    cofins,
    ibsCbs,
    approximateTaxes: s.of(o.taxes.estimatedTotal),
    total,
    returnedIpi,
    rule: {
      ruleId: null,
      description: `RETURN of NF-e ${original.accessKey} item ${o.lineNumber}: CFOP ${o.cfop} → ${cfop}, ${now.toString()} of ${o.quantity.toString()}`,
      ratesSource: `original NF-e ${original.accessKey} (values and taxes in proportion)`,
    },
  };
}
