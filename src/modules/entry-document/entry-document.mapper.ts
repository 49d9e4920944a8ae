import { Dec, SCALE, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { Product } from '../catalog';
import type { LedgerEffect } from '../stock';
import type { ComputedDocument, ComputedItem, InstallmentCheck, PlannedInstallment } from './entry-document.calculator';
import type { EntryDocumentInstallment } from './entities/entry-document-installment.entity';
import type { ReformTaxBlock, ReformTaxValue, StoredTax } from './entities/entry-document-item.entity';
import type { EntryDocument } from './entities/entry-document.entity';
import type { PreparedDraft, SupplierSnapshot } from './create-draft';
import type { Check, Totals } from './entry-document.types';
import { TAX_NAMES, TOTAL_NAMES } from './entry-document.types';
import { itemBookingDto } from './fiscal/fiscal.mapper';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const amount = (v: Dec | string | null | undefined) => toJsonNumber(v, 'amount');

const taxDto = (t: StoredTax | undefined) => ({
  cst: t?.cst ?? null,
  base: t?.base === null || t?.base === undefined ? null : toJsonNumber(t.base, 'amount'),
  rate: t?.rate === null || t?.rate === undefined ? null : toJsonNumber(t.rate, 'percent'),
  value: t?.value === null || t?.value === undefined ? null : toJsonNumber(t.value, 'amount'),
  ...(t?.snCreditValue
    ? {
        snCreditRate: t.snCreditRate ? toJsonNumber(t.snCreditRate, 'percent') : null,
        snCreditValue: toJsonNumber(t.snCreditValue, 'amount'),
      }
    : {}),
  ...(t?.retained
    ? {
        retained: {
          base: toJsonNumber(t.retained.base, 'amount'),
          rate: t.retained.rate === null ? null : toJsonNumber(t.retained.rate, 'percent'),
          substituteValue: t.retained.substituteValue === null ? null : toJsonNumber(t.retained.substituteValue, 'amount'),
          value: toJsonNumber(t.retained.value, 'amount'),
          fcpBase: t.retained.fcpBase === null ? null : toJsonNumber(t.retained.fcpBase, 'amount'),
          fcpRate: t.retained.fcpRate === null ? null : toJsonNumber(t.retained.fcpRate, 'percent'),
          fcpValue: t.retained.fcpValue === null ? null : toJsonNumber(t.retained.fcpValue, 'amount'),
        },
      }
    : {}),
  ...(t?.fcpValue
    ? {
        fcpBase: t.fcpBase ? toJsonNumber(t.fcpBase, 'amount') : null,
        fcpRate: t.fcpRate ? toJsonNumber(t.fcpRate, 'percent') : null,
        fcpValue: toJsonNumber(t.fcpValue, 'amount'),
      }
    : {}),
});

/**
 * JSON scale of a tax-reform decimal by its name (the convention of the NF-e types): `rate`/`…Rate`
 * 4 places, `quantity`/`…Quantity` 4, any other amount 2.
 */
export function reformFieldScale(field: string): number {
  if (/^rate$|Rate$/.test(field)) return SCALE.percent;
  if (/^quantity$|Quantity$/.test(field)) return SCALE.quantity;
  return SCALE.amount;
}

/** Text fields of the tax-reform blocks whose values look like numbers (codes, keys); other decimal strings are amounts, rates or quantities. */
const REFORM_TEXT_FIELDS = new Set([
  'cst',
  'classCode',
  'creditCode',
  'kind',
  'unit',
  'accessKey',
  'entityType',
  'operationType',
  'purpose',
  'debitNoteType',
  'creditNoteType',
  'ibsCbsMunicipality',
  'advancePaymentKeys',
]);
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** A stored tax-reform block as JSON: decimals become numbers at their scale, codes stay text. */
export function reformTaxesDto(block: ReformTaxBlock | null | undefined): Record<string, unknown> | null {
  const render = (value: ReformTaxValue, field: string): unknown => {
    if (typeof value === 'string')
      return REFORM_TEXT_FIELDS.has(field) || !DECIMAL_TEXT.test(value) ? value : toJsonNumber(value, reformFieldScale(field));
    if (Array.isArray(value)) return value.map((v) => render(v, field));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, k)]));
    return value;
  };
  return block ? (render(block, '') as Record<string, unknown>) : null;
}

/** An item, stored (with id) or only computed (preview-manual: id null). */
export function toItemDto(it: ComputedItem & { id?: number }, product?: Product) {
  return {
    id: it.id ? encodeId('entry-document-item', it.id) : null,
    lineNumber: it.lineNumber,
    productId: encodeOptionalId('product', it.productId),
    product: product ? { code: product.code, name: product.name, unit: product.unit, stockControlled: product.stockControlled } : null,
    reviewStatus: it.reviewStatus,
    supplierProductCode: it.supplierProductCode,
    description: it.description,
    ncm: it.ncm,
    cfop: it.cfop,
    unit: it.unit,
    quantity: toJsonNumber(it.quantity, 'quantity'),
    unitPrice: toJsonNumber(it.unitPrice, 'price'),
    total: amount(it.total),
    discount: amount(it.discount),
    freight: amount(it.freight),
    insurance: amount(it.insurance),
    otherExpenses: amount(it.otherExpenses),
    landedTotal: amount(it.landedTotal),
    apportionedFreight: amount(it.apportionedFreight),
    taxes: Object.fromEntries(TAX_NAMES.map((n) => [n, taxDto(it.taxes?.[n])])),
    conversionFactor: toJsonNumber(it.conversionFactor, 'factor'),
    stockQuantity: toJsonNumber(it.stockQuantity, 'quantity'),
    unitCost: toJsonNumber(it.unitCost, 'cost'),
    declared: {
      code: it.supplierProductCode,
      description: it.declaredDescription,
      unit: it.declaredUnit,
      quantity: toJsonNumber(it.declaredQuantity, 'quantity'),
      unitPrice: toJsonNumber(it.declaredUnitPrice, 'price'),
      ncm: it.declaredNcm,
      cfop: it.declaredCfop,
    },
    purchaseOrderItemId: encodeOptionalId('purchase-order-item', it.purchaseOrderItemId),
    ...(it.reformTaxes ? { reformTaxes: reformTaxesDto(it.reformTaxes) } : {}),
    ...itemBookingDto(it),
  };
}

/** A line that "apply the product map again" resolved. */
export const appliedMappingDto = (a: { itemId: number; lineNumber: number; productId: number; conversionFactor: Dec }) => ({
  itemId: encodeId('entry-document-item', a.itemId),
  lineNumber: a.lineNumber,
  productId: encodeId('product', a.productId),
  conversionFactor: toJsonNumber(a.conversionFactor, 'factor'),
});

export const totalsDto = (t: Totals) => Object.fromEntries(TOTAL_NAMES.map((n) => [n, amount(t[n])])) as Record<keyof Totals, number>;

export const docTotals = (d: EntryDocument): Totals => ({
  products: d.totalProducts,
  freight: d.totalFreight,
  insurance: d.totalInsurance,
  discount: d.totalDiscount,
  otherExpenses: d.totalOtherExpenses,
  ipi: d.totalIpi,
  icmsSt: d.totalIcmsSt,
  total: d.total,
});

export const installmentDto = (p: PlannedInstallment | EntryDocumentInstallment) => ({
  number: p.number,
  dueDate: p.dueDate,
  amount: amount(p.amount),
});

export const checkDto = (c: Check) => ({
  code: c.code,
  message: c.message,
  blocksConfirmation: c.blocksConfirmation,
  ...(c.lineNumber !== undefined ? { lineNumber: c.lineNumber } : {}),
  ...(c.details ? { details: c.details } : {}),
});

export const installmentCheckDto = (c: InstallmentCheck | null) =>
  c && {
    installmentsTotal: amount(c.installmentsTotal),
    documentTotal: amount(c.documentTotal),
    payableTotal: amount(c.payableTotal),
    difference: amount(c.difference),
    matches: c.matches,
  };

/** The header as lists show it (no items). */
export function toEntryDocumentSummaryDto(d: EntryDocument) {
  return {
    id: encodeId('entry-document', d.id),
    filialId: encodeId('filial', d.filialId),
    status: d.status,
    origin: d.origin,
    model: d.model,
    series: d.series,
    number: d.number,
    accessKey: d.accessKey,
    issueDate: d.issueDate,
    entryDate: d.entryDate,
    supplier: {
      id: encodeId('supplier', d.supplierId),
      document: d.supplierDocument,
      name: d.supplierName,
      stateRegistration: d.supplierStateRegistration,
      uf: d.supplierUf,
    },
    operationNature: d.operationNature,
    purpose: d.purpose,
    referencedKeys: d.referencedKeys ?? [],
    taxRegime: d.taxRegime,
    totals: totalsDto(docTotals(d)),
    expectedTotals: d.expectedTotals ? Object.fromEntries(Object.entries(d.expectedTotals).map(([k, v]) => [k, amount(v)])) : null,
    ...(d.reformTaxes ? { reformTaxes: reformTaxesDto(d.reformTaxes) } : {}),
    itemCount: d.itemCount,
    pendingItemCount: d.pendingItemCount,
    notes: d.notes,
    cancelReason: d.cancelReason,
    version: d.version,
    confirmedAt: iso(d.confirmedAt),
    cancelledAt: iso(d.cancelledAt),
    nfeCancelledByIssuerAt: iso(d.nfeCancelledAt),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}

/** Public event payload: hashids only. */
export function toStockMovementDto(e: LedgerEffect, lineNumber: number | undefined) {
  return {
    productId: encodeId('product', e.productId),
    lineNumber: lineNumber ?? null,
    direction: e.direction,
    quantity: toJsonNumber(e.quantity, 'quantity'),
    unitCost: toJsonNumber(e.unitCost, 'cost'),
    balanceBefore: toJsonNumber(e.balanceBefore, 'quantity'),
    balanceAfter: toJsonNumber(e.balanceAfter, 'quantity'),
    averageCostBefore: toJsonNumber(e.averageCostBefore, 'cost'),
    averageCostAfter: toJsonNumber(e.averageCostAfter, 'cost'),
  };
}

/** preview-manual: the computed document, nothing stored. */
/**
 * The document a preview would create (preview-manual, NF-e preview-import): its header from the
 * prepared input and the supplier as resolved (or as declared when it is not registered yet), then
 * the computed items, totals, installments and checks.
 */
export function toPreparedDraftDto(prepared: PreparedDraft, supplier: SupplierSnapshot | null, status: 'DRAFT' | null) {
  const { input } = prepared;
  return toPreviewDto(
    prepared.computed,
    {
      id: null,
      filialId: encodeId('filial', input.filialId),
      status,
      origin: input.origin,
      model: input.model,
      series: input.series,
      number: input.number,
      accessKey: input.accessKey ?? null,
      issueDate: input.issueDate,
      entryDate: input.entryDate,
      supplier: {
        id: supplier?.supplierId ? encodeId('supplier', supplier.supplierId) : null,
        document: supplier?.supplierDocument ?? input.supplier?.document ?? null,
        name: supplier?.supplierName ?? input.supplier?.name ?? null,
        stateRegistration: supplier?.supplierStateRegistration ?? input.supplier?.stateRegistration ?? null,
        uf: supplier?.supplierUf ?? input.supplier?.uf ?? null,
        registered: !!supplier?.supplierId,
      },
      operationNature: input.operationNature ?? null,
      purpose: input.purpose ?? '1',
      referencedKeys: input.referencedKeys ?? [],
      notes: input.notes ?? null,
      ...(input.reformTaxes ? { reformTaxes: reformTaxesDto(input.reformTaxes) } : {}),
    },
    prepared.products,
    prepared.checks,
  );
}

export function toPreviewDto(computed: ComputedDocument, header: Record<string, unknown>, products: Map<number, Product>, checks: Check[]) {
  return {
    ...header,
    items: computed.items.map((it) => toItemDto(it, it.productId ? products.get(it.productId) : undefined)),
    totals: totalsDto(computed.totals),
    installments: computed.installments.map(installmentDto),
    installmentCheck: installmentCheckDto(computed.installmentCheck),
    payableTotal: amount(computed.payableTotal),
    payables: computed.payables.map(installmentDto),
    warnings: checks.map(checkDto),
  };
}
