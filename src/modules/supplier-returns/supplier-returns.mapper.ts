import { Dec, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { PayableDeduction, SupplierCredit } from '../payables';
import type { LedgerEffect } from '../stock';
import type { SupplierReturnItem } from './entities/supplier-return-item.entity';
import type { SupplierReturn } from './entities/supplier-return.entity';
import type { ReturnPlan } from './postings';
import type { previewReturn, returnableLines } from './supplier-returns.service';

const money = (d: Dec) => toJsonNumber(d, 'amount');
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

type Credits = Pick<SupplierReturn, 'creditIcms' | 'creditPis' | 'creditCofins' | 'creditIpi' | 'creditCbs' | 'creditIbs'>;
const creditsDto = (c: Credits) => ({
  icms: money(c.creditIcms),
  pis: money(c.creditPis),
  cofins: money(c.creditCofins),
  ipi: money(c.creditIpi),
  cbs: money(c.creditCbs),
  ibs: money(c.creditIbs),
});

type Values = Pick<
  SupplierReturnItem,
  | 'productsValue'
  | 'discount'
  | 'freight'
  | 'insurance'
  | 'otherExpenses'
  | 'icmsBase'
  | 'icms'
  | 'ipiBase'
  | 'ipi'
  | 'icmsStBase'
  | 'icmsSt'
  | 'total'
>;
const valuesDto = (v: Values) => ({
  productsValue: money(v.productsValue),
  discount: money(v.discount),
  freight: money(v.freight),
  insurance: money(v.insurance),
  otherExpenses: money(v.otherExpenses),
  icmsBase: money(v.icmsBase),
  icms: money(v.icms),
  ipiBase: money(v.ipiBase),
  ipi: money(v.ipi),
  icmsStBase: money(v.icmsStBase),
  icmsSt: money(v.icmsSt),
  total: money(v.total),
});

export const toSupplierReturnDto = ({ ret, items }: { ret: SupplierReturn; items: SupplierReturnItem[] }) => ({
  id: encodeId('supplier-return', ret.id),
  code: ret.code,
  filialId: encodeId('filial', ret.filialId),
  entryDocumentId: encodeId('entry-document', ret.entryDocumentId),
  referencedKey: ret.referencedKey,
  supplier: { id: encodeId('supplier', ret.supplierId), document: ret.supplierDocument, name: ret.supplierName },
  status: ret.status,
  reason: ret.reason,
  invoiceId: encodeOptionalId('invoice', ret.invoiceId),
  totals: {
    products: money(ret.productsValue),
    discount: money(ret.discount),
    freight: money(ret.freight),
    insurance: money(ret.insurance),
    otherExpenses: money(ret.otherExpenses),
    icms: money(ret.icms),
    ipi: money(ret.ipi),
    icmsSt: money(ret.icmsSt),
    total: money(ret.total),
  },
  stockValue: money(ret.stockValue),
  creditsReversed: creditsDto(ret),
  payablesDeducted: money(ret.payablesDeducted),
  supplierCredit: money(ret.supplierCredit),
  items: items.map((i) => ({
    id: encodeId('supplier-return-item', i.id),
    lineNumber: i.lineNumber,
    entryDocumentItemId: encodeId('entry-document-item', i.entryDocumentItemId),
    productId: encodeOptionalId('product', i.productId),
    purchaseOrderItemId: encodeOptionalId('purchase-order-item', i.purchaseOrderItemId),
    cfop: i.cfop,
    quantity: toJsonNumber(i.quantity, 'quantity'),
    stockQuantity: toJsonNumber(i.stockQuantity, 'quantity'),
    unitPrice: toJsonNumber(i.unitPrice, 'price'),
    ...valuesDto(i),
    entryUnitCost: toJsonNumber(i.entryUnitCost, 'cost'),
    stockValue: money(i.stockValue),
    creditsReversed: creditsDto(i),
  })),
  createdBy: ret.actor,
  createdAt: iso(ret.createdAt)!,
  authorizedAt: iso(ret.authorizedAt),
  cancelledAt: iso(ret.cancelledAt),
  version: ret.version,
});

export const toSupplierReturnDetailDto = (d: {
  ret: SupplierReturn;
  items: SupplierReturnItem[];
  settlement: { deductions: PayableDeduction[]; credits: SupplierCredit[] };
}) => ({
  ...toSupplierReturnDto(d),
  settlement: {
    payables: d.settlement.deductions.map((x) => ({
      payableId: encodeId('payable', x.payableId),
      amount: money(x.amount),
      status: x.status,
    })),
    supplierCredits: d.settlement.credits.map((c) => ({
      id: encodeId('supplier-credit', c.id),
      amount: money(c.amount),
      status: c.status,
    })),
  },
});

export const toReturnableDto = ({ doc, lines }: Awaited<ReturnType<typeof returnableLines>>) => ({
  entryDocumentId: encodeId('entry-document', doc.id),
  status: doc.status,
  referencedKey: doc.accessKey,
  supplier: { id: encodeId('supplier', doc.supplierId), document: doc.supplierDocument, name: doc.supplierName },
  lines: lines.map(({ line, returned, returnable, notReturnableReason }) => ({
    entryDocumentItemId: encodeId('entry-document-item', line.item.id),
    lineNumber: line.item.lineNumber,
    productId: encodeOptionalId('product', line.item.productId),
    description: line.item.description,
    unit: line.item.unit,
    operationClass: line.item.operationClass,
    entryCfop: line.item.entryCfop,
    quantity: toJsonNumber(line.item.quantity, 'quantity'),
    returnedQuantity: toJsonNumber(returned, 'quantity'),
    returnableQuantity: toJsonNumber(returnable, 'quantity'),
    unitPrice: toJsonNumber(line.item.unitPrice, 'price'),
    entryUnitCost: toJsonNumber(line.entryUnitCost, 'cost'),
    notReturnableReason,
  })),
});

const movementDto = (e: LedgerEffect) => ({
  productId: encodeId('product', e.productId),
  quantity: toJsonNumber(e.quantity, 'quantity'),
  unitCost: toJsonNumber(e.unitCost, 'cost'),
  balanceBefore: toJsonNumber(e.balanceBefore, 'quantity'),
  balanceAfter: toJsonNumber(e.balanceAfter, 'quantity'),
  averageCostBefore: toJsonNumber(e.averageCostBefore, 'cost'),
  averageCostAfter: toJsonNumber(e.averageCostAfter, 'cost'),
});

export const toPlanLinesDto = (plan: ReturnPlan) =>
  plan.lines.map((l) => ({
    lineNumber: l.lineNumber,
    entryDocumentItemId: encodeId('entry-document-item', l.source.item.id),
    productId: encodeOptionalId('product', l.source.item.productId),
    description: l.source.item.description,
    unit: l.source.item.unit,
    cfop: l.cfop,
    quantity: toJsonNumber(l.quantity, 'quantity'),
    stockQuantity: toJsonNumber(l.stockQuantity, 'quantity'),
    unitPrice: toJsonNumber(l.source.item.unitPrice, 'price'),
    ...valuesDto(l),
    entryUnitCost: toJsonNumber(l.stockQuantity.gt(0) ? l.source.entryUnitCost : null, 'cost'),
    stockValue: money(l.stockValue),
    creditsReversed: creditsDto(l),
  }));

export const toPreviewDto = ({ plan, stock, settlement }: Awaited<ReturnType<typeof previewReturn>>) => ({
  entryDocumentId: encodeId('entry-document', plan.doc.id),
  referencedKey: plan.doc.accessKey,
  interstate: plan.interstate,
  lines: toPlanLinesDto(plan),
  totals: {
    products: money(plan.totals.productsValue),
    discount: money(plan.totals.discount),
    freight: money(plan.totals.freight),
    insurance: money(plan.totals.insurance),
    otherExpenses: money(plan.totals.otherExpenses),
    icms: money(plan.totals.icms),
    ipi: money(plan.totals.ipi),
    icmsSt: money(plan.totals.icmsSt),
    total: money(plan.totals.total),
  },
  stockValue: money(plan.totals.stockValue),
  creditsReversed: creditsDto(plan.totals),
  stockMovements: stock.effects.map(movementDto),
  payables: settlement.deductions.map((d) => ({
    payableId: encodeId('payable', d.payableId),
    installmentNumber: d.installmentNumber,
    amount: money(d.amount),
    amountAfter: money(d.amountAfter),
    statusAfter: d.statusAfter,
  })),
  supplierCredit: money(settlement.supplierCredit),
  warnings: stock.shortages.map((s) => ({
    code: 'INSUFFICIENT_STOCK',
    message: `Product needs ${s.requested.toFixed(4)} in stock, ${s.available.toFixed(4)} available; the filial forbids negative stock`,
  })),
});
