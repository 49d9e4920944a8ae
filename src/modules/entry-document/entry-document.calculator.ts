import { allocate, Dec, dec, round, sum, toFixed, toJsonNumber } from '../../core/decimal';
import { FieldError, ValidationError } from '../../core/errors';
import type { ItemReviewStatus, ReformTaxBlock, StoredTax, StoredTaxes } from './entities/entry-document-item.entity';
import { ChargeName, CHARGE_NAMES, Check, DraftInput, ItemInput, TAX_NAMES, TaxInput, TOTAL_NAMES, Totals } from './entry-document.types';
import { documentFiscalChecks, lineFiscalChecks } from './fiscal/fiscal-checks';
import type { EntryCfopSource, FiscalContext, NfePurpose, OperationClass, OperationClassSource } from './fiscal/fiscal.types';
import { computeLineCost } from './fiscal/line-cost';
import { resolveLineFiscal } from './fiscal/line-fiscal';
import { entryOperation, isImportCfop } from './fiscal/cfop-table';
import { lineEffect } from './fiscal/line-effect';
import { ruleSetFor } from './fiscal/rule-sets';

/*
 * The one computation of an entry document: item values, charges (per item or allocated from the
 * header), conversions, landed unit costs, totals, installments and the checks that warn or block.
 * Pure: create, PATCH, preview-manual and the confirm plan all call it, so they cannot disagree.
 */

/** The stored values of an item (the entity's columns but ids). */
export interface ComputedItem {
  lineNumber: number;
  productId: number | null;
  reviewStatus: ItemReviewStatus;
  supplierProductCode: string | null;
  description: string;
  ncm: string | null;
  cfop: string | null;
  unit: string;
  quantity: Dec;
  unitPrice: Dec;
  total: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  otherExpenses: Dec;
  ipi: Dec;
  icmsSt: Dec;
  landedTotal: Dec;
  /** Import duty (vII, in landedTotal) and customs expenses (vDespAdu, IOF, AFRMM: cost only) of an imported line. */
  importDuty: Dec;
  customsExpenses: Dec;
  /** CT-e freight apportioned onto the line (net of the ICMS credited on it): in the cost, not in the document total. */
  apportionedFreight: Dec;
  taxes: StoredTaxes;
  conversionFactor: Dec;
  stockQuantity: Dec;
  unitCost: Dec;
  declaredDescription: string | null;
  declaredUnit: string | null;
  declaredQuantity: Dec | null;
  declaredUnitPrice: Dec | null;
  declaredNcm: string | null;
  declaredCfop: string | null;
  purchaseOrderItemId: number | null;
  reformTaxes: ReformTaxBlock | null;
  /** The inbound CFOP the line is booked with, and where it came from. */
  entryCfop: string | null;
  entryCfopSource: EntryCfopSource;
  operationClass: OperationClass | null;
  operationClassSource: OperationClassSource;
  /** Credits taken on the line by the filial's tax regime. */
  creditIcms: Dec;
  creditPis: Dec;
  creditCofins: Dec;
  creditIpi: Dec;
  /** CBS and IBS credited (2027 rule set, as the document charges them). */
  creditCbs: Dec;
  creditIbs: Dec;
  /** PIS/COFINS credit base (zero when none is taken). */
  creditBase: Dec;
  /** Net landed cost: landedTotal − credits (+ apportioned freight); unitCost is this per stock unit. */
  costTotal: Dec;
}

export interface PlannedInstallment {
  number: number;
  dueDate: string;
  amount: Dec;
}

export interface InstallmentCheck {
  installmentsTotal: Dec;
  documentTotal: Dec;
  /** What is owed to the supplier: the lines whose class creates a payable (the document total when all do). */
  payableTotal: Dec;
  difference: Dec;
  matches: boolean;
}

export interface ComputedDocument {
  items: ComputedItem[];
  totals: Totals;
  /** As given (numbered 1..n when the input had no numbers). */
  installments: PlannedInstallment[];
  /** What confirmation will create: the installments, or one at the entry date for the total. */
  payables: PlannedInstallment[];
  installmentCheck: InstallmentCheck | null;
  /** The lines whose class creates a payable (bonificações, remessas and retornos are not owed). */
  payableTotal: Dec;
  checks: Check[];
}

type ComputeInput = Pick<
  DraftInput,
  'items' | 'charges' | 'installments' | 'expectedTotals' | 'issueDate' | 'purpose' | 'referencedKeys' | 'reformTaxes'
> & {
  entryDate: string;
  /** The filial's tax regime and the company's CFOP rules; default: Simples Nacional, no rules. */
  fiscal?: FiscalContext;
  /** The issuer's CNPJ/CPF (a transfer must come from the same company). */
  supplierDocument?: string | null;
};

const DEFAULT_FISCAL: FiscalContext = { taxRegime: 'SIMPLES_NACIONAL', rules: [] };

/** Whether a line of this class and entry CFOP (null class: not known yet) creates a payable in a document of this purpose. */
export function linePayable(operationClass: OperationClass | null, purpose: NfePurpose, entryCfop: string | null = null): boolean {
  return lineEffect(operationClass, entryCfop, purpose)?.payable ?? true;
}

/** Whether a line posts stock (own or third-party); unknown classes are treated as posting. */
export const linePostsStock = (operationClass: OperationClass | null, entryCfop: string | null = null, purpose: NfePurpose = '1') =>
  (lineEffect(operationClass, entryCfop, purpose)?.stock ?? 'OWN') !== 'NONE';

/** What a line owes the supplier: its part of the invoice, or for an import the goods with freight and insurance only (duty, customs expenses and taxes go to the authorities). */
export const payableAmountOf = (i: Pick<ComputedItem, 'entryCfop' | 'total' | 'discount' | 'freight' | 'insurance' | 'landedTotal'>) =>
  isImportCfop(i.entryCfop) ? i.total.minus(i.discount).plus(i.freight).plus(i.insurance) : i.landedTotal;

/** The amounts read from a line's reform block (the parsed IBS/CBS group; values as the XML gave them). */
interface StatedReformBlock {
  ibsCbs?: { general?: { cbs?: { value?: unknown }; ibsValue?: unknown }; singlePhase?: { cbsTotal?: unknown; ibsTotal?: unknown } };
}

/** The CBS and IBS a line's reform block states (general and single-phase groups), as decimals. */
function statedCbsIbs(block: ItemInput['reformTaxes']): { cbs: Dec; ibs: Dec } {
  const stated = block as StatedReformBlock | undefined;
  const g = stated?.ibsCbs?.general;
  const mono = stated?.ibsCbs?.singlePhase;
  const n = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? dec(v) : new Dec(0));
  return { cbs: n(g?.cbs?.value).plus(n(mono?.cbsTotal)), ibs: n(g?.ibsValue).plus(n(mono?.ibsTotal)) };
}

/** The 8-character CNPJ root (a CPF, 11 digits padded or not, has none). */
const cnpjRoot = (doc: string | null | undefined) => (doc && doc.length === 14 ? doc.slice(0, 8) : null);

// Column capacities: DECIMAL(15,2) amounts, DECIMAL(18,4) quantities, DECIMAL(21,10) costs.
const MAX_AMOUNT = new Dec('9999999999999.99');
const MAX_QUANTITY = new Dec('99999999999999.9999');
const MAX_COST = new Dec('99999999999.9999999999');

const money = (v: Dec | null | undefined) => round(dec(v), 'amount');
const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
const fixedOrNull = (v: Dec | null | undefined, scale: number) => (v === null || v === undefined ? null : toFixed(v, scale));

function storeTax(t: TaxInput | null | undefined, value?: Dec): StoredTax {
  return {
    cst: t?.cst ?? null,
    base: fixedOrNull(t?.base, 2),
    rate: fixedOrNull(t?.rate, 4),
    value: value !== undefined ? toFixed(value, 2) : fixedOrNull(t?.value, 2),
    // Kept only where given, so documents without a Simples credit store what they always did.
    ...(t?.snCreditValue !== null && t?.snCreditValue !== undefined
      ? { snCreditRate: fixedOrNull(t.snCreditRate, 4), snCreditValue: fixedOrNull(t.snCreditValue, 2) }
      : {}),
    ...(t?.retained
      ? {
          retained: {
            base: toFixed(t.retained.base, 2),
            rate: fixedOrNull(t.retained.rate, 4),
            substituteValue: fixedOrNull(t.retained.substituteValue, 2),
            value: toFixed(t.retained.value, 2),
            fcpBase: fixedOrNull(t.retained.fcpBase, 2),
            fcpRate: fixedOrNull(t.retained.fcpRate, 4),
            fcpValue: fixedOrNull(t.retained.fcpValue, 2),
          },
        }
      : {}),
    ...(t?.fcpValue !== null && t?.fcpValue !== undefined
      ? { fcpBase: fixedOrNull(t.fcpBase, 2), fcpRate: fixedOrNull(t.fcpRate, 4), fcpValue: fixedOrNull(t.fcpValue, 2) }
      : {}),
  };
}

const itemCharge = (item: ItemInput, charge: ChargeName): Dec | null | undefined => {
  if (charge === 'ipi') return item.taxes?.ipi?.value;
  if (charge === 'icmsSt') return item.taxes?.icmsSt?.value;
  return item[charge];
};

/**
 * Per charge: the header value allocated over the items by item value, or each item's own value.
 * Both at once would be ambiguous, so it is refused.
 */
function resolveCharges(input: ComputeInput, itemTotals: Dec[]): Record<ChargeName, Dec[]> {
  const errors: FieldError[] = [];
  const out = {} as Record<ChargeName, Dec[]>;
  for (const charge of CHARGE_NAMES) {
    const header = input.charges?.[charge];
    if (header !== null && header !== undefined) {
      const clashing = input.items.findIndex((it) => itemCharge(it, charge) !== null && itemCharge(it, charge) !== undefined);
      if (clashing >= 0) {
        errors.push({
          path: `charges.${charge}`,
          message: `charges.${charge} is allocated to the items; remove it from items[${clashing}] or from the header`,
        });
        continue;
      }
      out[charge] = allocate(money(header), itemTotals, 'amount');
    } else {
      out[charge] = input.items.map((it) => money(itemCharge(it, charge)));
    }
  }
  if (errors.length) throw new ValidationError('Invalid request', errors);
  return out;
}

type DocumentTerms = { purpose: NfePurpose; fiscal: FiscalContext; issueDate: string; reformCharged: boolean };

function computeItem(
  item: ItemInput,
  index: number,
  charges: Record<ChargeName, Dec[]>,
  itemTotal: Dec,
  checks: Check[],
  errors: FieldError[],
  doc: DocumentTerms,
): ComputedItem {
  const amounts = lineAmounts(item, index, charges, itemTotal);
  const fiscal = lineFiscal(item, index, doc, errors);
  const cost = lineCostOf(item, amounts, fiscal, doc);
  const postsStock = linePostsStock(fiscal.operationClass, fiscal.entryCfop, doc.purpose);
  const reviewStatus: ItemReviewStatus = item.ignored ? 'IGNORED' : item.productId ? 'MATCHED' : 'PENDING';
  lineChecks(checks, { index, reviewStatus, postsStock, amounts, fiscal, purpose: doc.purpose, cfop: orNull(item.cfop) });
  lineLimitErrors(errors, index, amounts, cost.unitCost);
  return computedItem(item, index, amounts, fiscal, cost, reviewStatus);
}

/** A line's quantities and values: its share of the header's charges, the landed total, the stock units. */
function lineAmounts(item: ItemInput, index: number, charges: Record<ChargeName, Dec[]>, itemTotal: Dec) {
  const quantity = round(item.quantity, 'quantity');
  const unitPrice = round(item.unitPrice, 'price');
  const factor = round(dec(item.conversionFactor ?? 1), 'factor');
  const [freight, insurance, discount, otherExpenses, ipi, icmsSt] = CHARGE_NAMES.map((c) => charges[c][index]);
  // An import's duty (vII) is part of the invoice total (vNF, MOC W16) but never of the foreign supplier's payable.
  const importDuty = money(item.importDuty);
  const customsExpenses = money(item.customsExpenses);
  const landedTotal = itemTotal.minus(discount).plus(freight).plus(insurance).plus(otherExpenses).plus(ipi).plus(icmsSt).plus(importDuty);
  // CT-e freight goes into the line's cost (computeLineCost), but the carrier bills it: not in the total.
  const apportionedFreight = money(item.apportionedFreight);
  const exactStock = quantity.times(factor);
  const stockQuantity = round(exactStock, 'quantity');
  return {
    quantity,
    unitPrice,
    factor,
    itemTotal,
    freight,
    insurance,
    discount,
    otherExpenses,
    ipi,
    icmsSt,
    importDuty,
    customsExpenses,
    landedTotal,
    apportionedFreight,
    exactStock,
    stockQuantity,
  };
}

type LineAmounts = ReturnType<typeof lineAmounts>;
type LineFiscal = ReturnType<typeof resolveLineFiscal>;

/** The line's entry CFOP and operation class; a class the document's purpose forbids is an error. */
function lineFiscal(item: ItemInput, index: number, doc: DocumentTerms, errors: FieldError[]): LineFiscal {
  const fiscal = resolveLineFiscal(
    {
      cfop: orNull(item.cfop),
      ncm: orNull(item.ncm),
      productId: item.productId ?? null,
      entryCfop: item.entryCfop,
      operationClass: item.operationClass,
    },
    doc.purpose,
    doc.fiscal.rules,
  );
  if (fiscal.refusedClass) {
    errors.push({
      path: `items[${index}].operationClass`,
      message: `finNFe ${doc.purpose} books every line as ${fiscal.operationClass}; items[${index}].operationClass cannot be ${fiscal.refusedClass}`,
    });
  }
  return fiscal;
}

function lineCostOf(item: ItemInput, amounts: LineAmounts, fiscal: LineFiscal, doc: DocumentTerms) {
  const rule = fiscal.ruleId === null ? null : doc.fiscal.rules.find((r) => r.id === fiscal.ruleId);
  return computeLineCost({
    total: amounts.itemTotal,
    discount: amounts.discount,
    freight: amounts.freight,
    insurance: amounts.insurance,
    otherExpenses: amounts.otherExpenses,
    ipi: amounts.ipi,
    icmsSt: amounts.icmsSt,
    landedTotal: amounts.landedTotal,
    icms: money(item.taxes?.icms?.value),
    icmsCst: item.taxes?.icms?.cst ?? null,
    snCredit: money(item.taxes?.icms?.snCreditValue),
    issueDate: doc.issueDate,
    ...(doc.reformCharged ? (({ cbs, ibs }) => ({ chargedCbs: money(cbs), chargedIbs: money(ibs) }))(statedCbsIbs(item.reformTaxes)) : {}),
    customsExpenses: amounts.customsExpenses,
    pisPaid: money(item.taxes?.pis?.value),
    cofinsPaid: money(item.taxes?.cofins?.value),
    pisBase: item.taxes?.pis?.base ? money(item.taxes.pis.base) : null,
    pisCst: item.taxes?.pis?.cst ?? null,
    cofinsCst: item.taxes?.cofins?.cst ?? null,
    stockQuantity: amounts.stockQuantity,
    entryCfop: fiscal.entryCfop,
    operationClass: fiscal.operationClass,
    baseClass: rule?.operationClass ?? entryOperation(fiscal.entryCfop)?.operationClass ?? null,
    purpose: doc.purpose,
    taxRegime: doc.fiscal.taxRegime,
    apportionedFreight: amounts.apportionedFreight,
  });
}

/** The line's findings for the review screen; the blocking ones hold the confirmation. */
function lineChecks(
  checks: Check[],
  line: {
    index: number;
    reviewStatus: ItemReviewStatus;
    postsStock: boolean;
    amounts: LineAmounts;
    fiscal: LineFiscal;
    purpose: NfePurpose;
    cfop: string | null;
  },
) {
  const { reviewStatus, postsStock, fiscal } = line;
  const { quantity, factor, apportionedFreight, landedTotal, exactStock, stockQuantity } = line.amounts;
  const lineNumber = line.index + 1;
  // A line whose class posts no stock (a fixed asset, a retorno, a value-only document) needs no product.
  if (reviewStatus === 'PENDING' && postsStock) {
    checks.push({
      code: 'ITEM_WITHOUT_PRODUCT',
      message: `Line ${lineNumber} has no product; map it or ignore it`,
      blocksConfirmation: true,
      lineNumber,
    });
  }
  checks.push(...lineFiscalChecks({ lineNumber, cfop: line.cfop, fiscal }));
  // CT-e freight was put on the line as the cost of goods entering own stock; a class changed since would lose it.
  if (!apportionedFreight.isZero() && lineEffect(fiscal.operationClass, fiscal.entryCfop, line.purpose)?.stock !== 'OWN') {
    checks.push({
      code: 'APPORTIONED_FREIGHT_WITHOUT_STOCK',
      message: `Line ${lineNumber} carries ${apportionedFreight.toFixed(2)} of CT-e freight but its class posts no own stock: cancel the CT-e or book the line as a purchase`,
      blocksConfirmation: true,
      lineNumber,
    });
  }
  if (quantity.lte(0) && postsStock) {
    checks.push({
      code: 'ITEM_QUANTITY_NOT_POSITIVE',
      message: `Line ${lineNumber} has quantity ${quantity.toFixed(4)}`,
      blocksConfirmation: true,
      lineNumber,
    });
  }
  if (landedTotal.lt(0)) {
    checks.push({
      code: 'ITEM_NEGATIVE_VALUE',
      message: `Line ${lineNumber}: the discount exceeds the line's value`,
      blocksConfirmation: true,
      lineNumber,
    });
  }
  if (!exactStock.eq(stockQuantity)) {
    checks.push({
      code: 'STOCK_QUANTITY_ROUNDED',
      message: `Line ${lineNumber}: ${quantity.toFixed(4)} × ${factor.toFixed(6)} was rounded to ${stockQuantity.toFixed(4)} stock units`,
      blocksConfirmation: false,
      lineNumber,
    });
  }
}

/** Values the columns cannot hold are request errors. */
function lineLimitErrors(errors: FieldError[], index: number, { itemTotal, landedTotal, stockQuantity }: LineAmounts, unitCost: Dec) {
  const path = `items[${index}]`;
  if (itemTotal.abs().gt(MAX_AMOUNT) || landedTotal.abs().gt(MAX_AMOUNT))
    errors.push({ path: `${path}.quantity`, message: `${path} value exceeds the largest amount` });
  if (stockQuantity.gt(MAX_QUANTITY))
    errors.push({ path: `${path}.conversionFactor`, message: `${path} stock quantity exceeds the largest quantity` });
  if (unitCost.abs().gt(MAX_COST)) errors.push({ path: `${path}.quantity`, message: `${path} unit cost exceeds the largest cost` });
}

function computedItem(
  item: ItemInput,
  index: number,
  amounts: LineAmounts,
  fiscal: LineFiscal,
  cost: ReturnType<typeof computeLineCost>,
  reviewStatus: ItemReviewStatus,
): ComputedItem {
  const {
    quantity,
    unitPrice,
    factor,
    itemTotal,
    freight,
    insurance,
    discount,
    otherExpenses,
    ipi,
    icmsSt,
    importDuty,
    customsExpenses,
    landedTotal,
    apportionedFreight,
    stockQuantity,
  } = amounts;
  const taxes = Object.fromEntries(
    TAX_NAMES.map((name) => [name, storeTax(item.taxes?.[name], name === 'ipi' ? ipi : name === 'icmsSt' ? icmsSt : undefined)]),
  ) as StoredTaxes;
  const declared = item.declared ?? {};
  return {
    lineNumber: index + 1,
    productId: item.productId ?? null,
    reviewStatus,
    supplierProductCode: orNull(item.supplierProductCode),
    description: item.description,
    ncm: orNull(item.ncm),
    cfop: orNull(item.cfop),
    unit: item.unit,
    quantity,
    unitPrice,
    total: itemTotal,
    discount,
    freight,
    insurance,
    otherExpenses,
    ipi,
    icmsSt,
    landedTotal,
    importDuty,
    customsExpenses,
    apportionedFreight,
    taxes,
    conversionFactor: factor,
    stockQuantity,
    unitCost: cost.unitCost,
    // Declared values default to the booked ones: for a manual entry they are the same thing.
    declaredDescription: declared.description ?? item.description,
    declaredUnit: declared.unit ?? item.unit,
    declaredQuantity: declared.quantity ? round(declared.quantity, 'quantity') : quantity,
    declaredUnitPrice: declared.unitPrice ? round(declared.unitPrice, 'price') : unitPrice,
    declaredNcm: declared.ncm ?? orNull(item.ncm),
    declaredCfop: declared.cfop ?? orNull(item.cfop),
    purchaseOrderItemId: item.purchaseOrderItemId ?? null,
    reformTaxes: item.reformTaxes ?? null,
    entryCfop: fiscal.entryCfop,
    entryCfopSource: fiscal.entryCfopSource,
    operationClass: fiscal.operationClass,
    operationClassSource: fiscal.operationClassSource,
    creditIcms: cost.credits.icms,
    creditPis: cost.credits.pis,
    creditCofins: cost.credits.cofins,
    creditIpi: cost.credits.ipi,
    creditCbs: cost.credits.cbs,
    creditIbs: cost.credits.ibs,
    creditBase: cost.creditBase,
    costTotal: cost.costTotal,
  };
}

/** The tax authority accepts vProd within one cent of qCom × vUnCom (rejection 629 beyond it). */
const INVOICED_VALUE_TOLERANCE = new Dec('0.01');

/**
 * quantity × unit price to the cent; an invoiced line value (vProd) within the authority's tolerance
 * wins, so an imported document adds up to the invoice's ICMSTot exactly.
 */
function lineValue(it: ItemInput): Dec {
  const computed = money(round(it.quantity, 'quantity').times(round(it.unitPrice, 'price')));
  const invoiced = it.declared?.total;
  return invoiced && invoiced.minus(computed).abs().lte(INVOICED_VALUE_TOLERANCE) ? money(invoiced) : computed;
}

export function computeDocument(input: ComputeInput): ComputedDocument {
  const checks: Check[] = [];
  const errors: FieldError[] = [];
  if (!input.items.length) checks.push({ code: 'NO_ITEMS', message: 'The document has no items', blocksConfirmation: true });

  const itemTotals = input.items.map(lineValue);
  const charges = resolveCharges(input, itemTotals);
  const purpose: NfePurpose = input.purpose ?? '1';
  const reformCharged = (input.reformTaxes as { rule?: { charged?: unknown } } | undefined)?.rule?.charged === true;
  const doc = { purpose, fiscal: input.fiscal ?? DEFAULT_FISCAL, issueDate: input.issueDate, reformCharged };
  const items = input.items.map((it, i) => computeItem(it, i, charges, itemTotals[i], checks, errors, doc));
  checks.push(
    ...documentFiscalChecks(
      items.map((i) => i.operationClass),
      purpose,
      input.referencedKeys ?? [],
    ),
  );
  checks.push(...transferChecks(items, doc.fiscal, input.supplierDocument));
  checks.push(...reformChecks(input, items, reformCharged));
  const payableTotal = sum(items.filter((i) => linePayable(i.operationClass, purpose, i.entryCfop)).map(payableAmountOf));
  const totals = documentTotals(items, errors, checks);
  const installments = numberedInstallments(input, errors);
  if (errors.length) throw new ValidationError('Invalid request', errors);

  const installmentCheck = installments.length ? checkInstallments(input, { installments, totals, payableTotal }, checks) : null;
  const payables = installments.length
    ? installments
    : payableTotal.gt(0)
      ? [{ number: 1, dueDate: input.entryDate, amount: payableTotal }]
      : [];
  checks.push(...expectedTotalsChecks(input, totals));
  if (input.entryDate < input.issueDate) {
    checks.push({ code: 'ENTRY_BEFORE_ISSUE', message: 'The entry date is before the issue date', blocksConfirmation: false });
  }
  return { items, totals, installments, payables, installmentCheck, payableTotal, checks };
}

/** Under a rule set that credits CBS, CBS/IBS the configured NF-e rule keeps informative earn no credit: said, not blocking. */
function reformChecks(input: ComputeInput, items: ComputedItem[], reformCharged: boolean): Check[] {
  const ruleSet = ruleSetFor(input.issueDate);
  if (!ruleSet.cbsIbs || reformCharged || !items.some((i) => !statedCbsIbs(i.reformTaxes).cbs.isZero())) return [];
  return [
    {
      code: 'REFORM_TAXES_NOT_CHARGED',
      message: `The document is dated ${input.issueDate} (rule set ${ruleSet.id}: no PIS/COFINS credit, CBS credited) but its CBS/IBS are informative under the configured NF-e rule (NFE_TAX_REFORM_RULES), so no CBS/IBS credit is taken`,
      blocksConfirmation: false,
    },
  ];
}

/** The document's totals from its lines (the total as the NF-e's vNF); each beyond the largest amount an error, a negative total blocking. */
function documentTotals(items: ComputedItem[], errors: FieldError[], checks: Check[]): Totals {
  const totals = {
    products: sum(items.map((i) => i.total)),
    freight: sum(items.map((i) => i.freight)),
    insurance: sum(items.map((i) => i.insurance)),
    discount: sum(items.map((i) => i.discount)),
    otherExpenses: sum(items.map((i) => i.otherExpenses)),
    ipi: sum(items.map((i) => i.ipi)),
    icmsSt: sum(items.map((i) => i.icmsSt)),
  } as Totals;
  totals.total = totals.products
    .minus(totals.discount)
    .plus(totals.freight)
    .plus(totals.insurance)
    .plus(totals.otherExpenses)
    .plus(totals.ipi)
    .plus(totals.icmsSt)
    .plus(sum(items.map((i) => i.importDuty)));
  for (const name of TOTAL_NAMES)
    if (totals[name].abs().gt(MAX_AMOUNT)) errors.push({ path: 'items', message: `the document's ${name} exceeds the largest amount` });
  if (totals.total.lt(0))
    checks.push({ code: 'DOCUMENT_TOTAL_NEGATIVE', message: 'The discounts exceed the value of the document', blocksConfirmation: true });
  return totals;
}

/** The installments as given, numbered 1..n where the input has no numbers; a number given twice is an error. */
function numberedInstallments(input: ComputeInput, errors: FieldError[]): PlannedInstallment[] {
  const installments = (input.installments ?? []).map((p, i) => ({
    number: p.number ?? i + 1,
    dueDate: p.dueDate,
    amount: money(p.amount),
  }));
  const seen = new Set<number>();
  installments.forEach((p, i) => {
    if (seen.has(p.number)) errors.push({ path: `installments[${i}].number`, message: `installment number ${p.number} is repeated` });
    seen.add(p.number);
  });
  return installments;
}

/** The installments against what is owed to the supplier (a mismatch blocks) and the issue date (one due before it warns). */
function checkInstallments(
  input: ComputeInput,
  { installments, totals, payableTotal }: { installments: PlannedInstallment[]; totals: Totals; payableTotal: Dec },
  checks: Check[],
): InstallmentCheck {
  const installmentsTotal = sum(installments.map((p) => p.amount));
  const difference = payableTotal.minus(installmentsTotal);
  if (!difference.isZero()) {
    const owed = payableTotal.eq(totals.total)
      ? `the document total is ${totals.total.toFixed(2)}`
      : `the lines owed to the supplier add up to ${payableTotal.toFixed(2)} (document total ${totals.total.toFixed(2)})`;
    checks.push({
      code: 'INSTALLMENTS_TOTAL_MISMATCH',
      message: `The installments add up to ${installmentsTotal.toFixed(2)}; ${owed}`,
      blocksConfirmation: true,
      details: {
        installmentsTotal: toJsonNumber(installmentsTotal, 'amount'),
        documentTotal: toJsonNumber(totals.total, 'amount'),
        payableTotal: toJsonNumber(payableTotal, 'amount'),
        difference: toJsonNumber(difference, 'amount'),
      },
    });
  }
  installments.forEach((p) => {
    if (p.dueDate < input.issueDate) {
      checks.push({
        code: 'INSTALLMENT_DUE_BEFORE_ISSUE',
        message: `Installment ${p.number} is due before the issue date`,
        blocksConfirmation: false,
      });
    }
  });
  return { installmentsTotal, documentTotal: totals.total, payableTotal, difference, matches: difference.isZero() };
}

/** The computed totals against the XML's ICMSTot, when the input carries it: any difference blocks. */
function expectedTotalsChecks(input: ComputeInput, totals: Totals): Check[] {
  if (!input.expectedTotals) return [];
  const differences = TOTAL_NAMES.filter((name) => {
    const expected = input.expectedTotals?.[name];
    return expected !== undefined && expected !== null && !money(expected).eq(totals[name]);
  }).map((name) => ({
    field: name,
    expected: toJsonNumber(money(input.expectedTotals![name]), 'amount'),
    computed: toJsonNumber(totals[name], 'amount'),
  }));
  if (!differences.length) return [];
  return [
    {
      code: 'TOTALS_DIFFER_FROM_XML',
      message: `The computed totals differ from the XML's ICMSTot (${differences.map((d) => d.field).join(', ')})`,
      blocksConfirmation: true,
      details: { differences },
    },
  ];
}

/**
 * A transfer (x151/x152/x408/x409/x209) is between establishments of one owner: the issuer is a filial
 * of the company, or its CNPJ root (first 8 characters) is the filial's (Convênio SINIEF s/nº 1970,
 * CFOP 1.150: "transferência" between establishments of the same holder).
 */
function transferChecks(items: ComputedItem[], fiscal: FiscalContext, supplierDocument: string | null | undefined): Check[] {
  const lines = items.filter((i) => i.operationClass === 'TRANSFER').map((i) => i.lineNumber);
  const filialDocument = fiscal.filialDocument;
  if (!lines.length || !filialDocument || !supplierDocument) return [];
  if (cnpjRoot(filialDocument) !== null && cnpjRoot(filialDocument) === cnpjRoot(supplierDocument)) return [];
  if ((fiscal.companyDocuments ?? []).includes(supplierDocument)) return [];
  return [
    {
      code: 'TRANSFER_FROM_ANOTHER_COMPANY',
      message: `Lines ${lines.join(', ')} are booked as a transfer, but the issuer ${supplierDocument} is not a filial of this company (CNPJ root ${cnpjRoot(filialDocument)}): book them as a purchase`,
      blocksConfirmation: true,
      details: { lines, issuerDocument: supplierDocument, filialDocument },
    },
  ];
}

/** Blocking problems and warnings of a list of checks. */
export const splitChecks = (checks: Check[]) => ({
  blocking: checks.filter((c) => c.blocksConfirmation),
  warnings: checks.filter((c) => !c.blocksConfirmation),
});
