import { toJsonNumber } from '../../../core/decimal';
import { encodeId, encodeOptionalId } from '../../../core/hashids';
import type { ThirdPartyEffect, ThirdPartyStockBalance } from '../../stock';
import type { ComputedItem } from '../entry-document.calculator';
import type { EntryCfopRule } from '../entities/entry-cfop-rule.entity';
import type { EntryDocumentTaxCredit } from '../entities/entry-document-tax-credit.entity';
import type { LineBooking, TaxCreditTotal } from './booking';

/** DTOs of the fiscal booking: lines as confirm books them, credits, third-party movements, CFOP rules. */

const amount = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 'amount');

/** A line's cost, from the invoice's gross value to the net cost per stock unit, and its credits. */
export const costBreakdownDto = (it: ComputedItem) => ({
  products: amount(it.total),
  discount: amount(it.discount),
  freight: amount(it.freight),
  insurance: amount(it.insurance),
  otherExpenses: amount(it.otherExpenses),
  ipi: amount(it.ipi),
  icmsSt: amount(it.icmsSt),
  grossTotal: amount(it.landedTotal),
  credits: { icms: amount(it.creditIcms), pis: amount(it.creditPis), cofins: amount(it.creditCofins), ipi: amount(it.creditIpi) },
  pisCofinsCreditBase: amount(it.creditBase),
  // An import's duty and customs expenses (absent on other lines, so they read as before).
  ...(it.importDuty.isZero() && it.customsExpenses.isZero()
    ? {}
    : { importCosts: { duty: amount(it.importDuty), customsExpenses: amount(it.customsExpenses) } }),
  // CBS/IBS credits appear only where taken (2027 rule set), so earlier documents read as before.
  ...(it.creditCbs.isZero() && it.creditIbs.isZero() ? {} : { reformCredits: { cbs: amount(it.creditCbs), ibs: amount(it.creditIbs) } }),
  costTotal: amount(it.costTotal),
  stockQuantity: toJsonNumber(it.stockQuantity, 'quantity'),
  unitCost: toJsonNumber(it.unitCost, 'cost'),
});

/** The booking fields of an item (detail, previews). */
export const itemBookingDto = (it: ComputedItem) => ({
  entryCfop: it.entryCfop,
  entryCfopSource: it.entryCfopSource,
  operationClass: it.operationClass,
  operationClassSource: it.operationClassSource,
  cost: costBreakdownDto(it),
});

export const lineBookingDto = (b: LineBooking) => ({
  lineNumber: b.lineNumber,
  productId: encodeOptionalId('product', b.item.productId),
  description: b.item.description,
  declaredCfop: b.item.declaredCfop ?? b.item.cfop,
  ...itemBookingDto(b.item),
  posts: { stock: b.stock, payable: b.payable },
  stockNote: b.stockNote,
  effect: b.effect,
});

export const plannedCreditDto = (c: TaxCreditTotal) => ({ tax: c.tax, base: amount(c.base), amount: amount(c.amount) });

export const taxCreditDto = (c: EntryDocumentTaxCredit) => ({
  tax: c.tax,
  base: amount(c.base),
  amount: amount(c.amount),
  taxRegime: c.taxRegime,
  entryDate: c.entryDate,
  status: c.status,
  recordedAt: new Date(c.createdAt).toISOString(),
  reversedAt: c.reversedAt ? new Date(c.reversedAt).toISOString() : null,
});

export const thirdPartyMovementDto = (e: ThirdPartyEffect, lineNumber: number | undefined) => ({
  productId: encodeId('product', e.productId),
  lineNumber: lineNumber ?? null,
  ownerDocument: e.ownerDocument,
  direction: e.direction,
  quantity: toJsonNumber(e.quantity, 'quantity'),
  value: amount(e.value),
  balanceBefore: toJsonNumber(e.balanceBefore, 'quantity'),
  balanceAfter: toJsonNumber(e.balanceAfter, 'quantity'),
});

export const cfopRuleDto = (r: EntryCfopRule) => ({
  id: encodeId('entry-cfop-rule', r.id),
  issuerCfop: r.issuerCfop,
  ncm: r.ncm,
  productId: encodeOptionalId('product', r.productId),
  entryCfop: r.entryCfop,
  operationClass: r.operationClass,
  version: r.version,
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

export const thirdPartyBalanceDto = (b: ThirdPartyStockBalance) => ({
  id: encodeId('third-party-stock', b.id),
  productId: encodeId('product', b.productId),
  ownerDocument: b.ownerDocument,
  ownerSupplierId: encodeOptionalId('supplier', b.ownerSupplierId),
  quantity: toJsonNumber(b.quantity, 'quantity'),
  value: amount(b.value),
  updatedAt: new Date(b.updatedAt).toISOString(),
});
