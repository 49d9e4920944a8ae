import { EntityManager } from 'typeorm';
import { dec } from '../../core/decimal';
import type { Product } from '../catalog';
import { ComputedDocument, ComputedItem, computeDocument } from './entry-document.calculator';
import { EntryDocumentInstallment } from './entities/entry-document-installment.entity';
import { EntryDocumentItem, StoredTax } from './entities/entry-document-item.entity';
import { EntryDocument } from './entities/entry-document.entity';
import { loadInstallments, loadItems, loadProducts } from './entry-document.repository';
import { loadFiscalContext } from './fiscal/fiscal-context';
import type { FiscalContext } from './fiscal/fiscal.types';
import { Check, DraftInput, InstallmentInput, ItemInput, TAX_NAMES, TaxInput, Totals } from './entry-document.types';

/** A stored document with its lines, recomputed by the calculator, and what its products add. */
export interface DocumentState {
  doc: EntryDocument;
  items: EntryDocumentItem[];
  installments: EntryDocumentInstallment[];
  computed: ComputedDocument;
  products: Map<number, Product>;
  checks: Check[];
  /** The tax regime and CFOP rules the document was computed with. */
  fiscal: FiscalContext;
}

const taxInput = (t: StoredTax | undefined): TaxInput | null =>
  t
    ? {
        cst: t.cst,
        base: t.base === null ? null : dec(t.base),
        rate: t.rate === null ? null : dec(t.rate),
        value: t.value === null ? null : dec(t.value),
        ...(t.snCreditValue ? { snCreditRate: t.snCreditRate ? dec(t.snCreditRate) : null, snCreditValue: dec(t.snCreditValue) } : {}),
        ...(t.retained
          ? {
              retained: {
                base: dec(t.retained.base),
                rate: t.retained.rate === null ? null : dec(t.retained.rate),
                substituteValue: t.retained.substituteValue === null ? null : dec(t.retained.substituteValue),
                value: dec(t.retained.value),
                fcpBase: t.retained.fcpBase === null ? null : dec(t.retained.fcpBase),
                fcpRate: t.retained.fcpRate === null ? null : dec(t.retained.fcpRate),
                fcpValue: t.retained.fcpValue === null ? null : dec(t.retained.fcpValue),
              },
            }
          : {}),
        ...(t.fcpValue
          ? { fcpBase: t.fcpBase ? dec(t.fcpBase) : null, fcpRate: t.fcpRate ? dec(t.fcpRate) : null, fcpValue: dec(t.fcpValue) }
          : {}),
      }
    : null;

/** A stored item as calculator input: every charge per item, so recomputing gives the stored values back. */
export function storedItemInput(it: EntryDocumentItem): ItemInput {
  return {
    productId: it.productId,
    ignored: it.reviewStatus === 'IGNORED',
    supplierProductCode: it.supplierProductCode,
    description: it.description,
    ncm: it.ncm,
    cfop: it.cfop,
    unit: it.unit,
    quantity: it.quantity,
    unitPrice: it.unitPrice,
    discount: it.discount,
    freight: it.freight,
    insurance: it.insurance,
    otherExpenses: it.otherExpenses,
    taxes: Object.fromEntries(TAX_NAMES.map((n) => [n, taxInput(it.taxes?.[n])])),
    apportionedFreight: it.apportionedFreight,
    importDuty: it.importDuty,
    customsExpenses: it.customsExpenses,
    conversionFactor: it.conversionFactor,
    // Choices made on the draft stay; the rest is resolved again (rules may have changed meanwhile).
    entryCfop: it.entryCfopSource === 'MANUAL' ? it.entryCfop : null,
    operationClass: it.operationClassSource === 'MANUAL' ? it.operationClass : null,
    declared: {
      description: it.declaredDescription,
      unit: it.declaredUnit,
      quantity: it.declaredQuantity,
      unitPrice: it.declaredUnitPrice,
      // The line value booked (the invoiced vProd when it was within tolerance): recomputing keeps it.
      total: it.total,
      ncm: it.declaredNcm,
      cfop: it.declaredCfop,
    },
    purchaseOrderItemId: it.purchaseOrderItemId,
    reformTaxes: it.reformTaxes,
  };
}

export const storedInstallmentInput = (p: EntryDocumentInstallment): InstallmentInput => ({
  number: p.number,
  dueDate: p.dueDate,
  amount: p.amount,
});

export function storedExpectedTotals(doc: EntryDocument): Partial<Totals> | null {
  if (!doc.expectedTotals) return null;
  return Object.fromEntries(Object.entries(doc.expectedTotals).map(([k, v]) => [k, dec(v)])) as Partial<Totals>;
}

/** The stored draft as the input it would take to create it again. */
export function storedDraftInput(doc: EntryDocument, items: EntryDocumentItem[], installments: EntryDocumentInstallment[]): DraftInput {
  return {
    filialId: doc.filialId,
    origin: doc.origin,
    model: doc.model,
    series: doc.series,
    number: doc.number,
    accessKey: doc.accessKey,
    issueDate: doc.issueDate,
    entryDate: doc.entryDate,
    operationNature: doc.operationNature,
    notes: doc.notes,
    supplierId: doc.supplierId,
    items: items.map(storedItemInput),
    installments: installments.map(storedInstallmentInput),
    expectedTotals: storedExpectedTotals(doc),
    purpose: doc.purpose,
    referencedKeys: doc.referencedKeys,
    reformTaxes: doc.reformTaxes,
  };
}

/** Findings that need the products themselves: gone, inactive, or not stock-controlled. */
export function productChecks(items: ComputedItem[], products: Map<number, Product>): Check[] {
  const checks: Check[] = [];
  for (const it of items) {
    if (it.productId === null || it.reviewStatus === 'IGNORED') continue;
    const p = products.get(it.productId);
    if (!p) {
      checks.push({
        code: 'PRODUCT_NOT_FOUND',
        message: `Line ${it.lineNumber}: the product no longer exists`,
        blocksConfirmation: true,
        lineNumber: it.lineNumber,
      });
    } else if (!p.active) {
      checks.push({
        code: 'PRODUCT_INACTIVE',
        message: `Line ${it.lineNumber}: product ${p.code} is inactive`,
        blocksConfirmation: false,
        lineNumber: it.lineNumber,
      });
    } else if (!p.stockControlled) {
      checks.push({
        code: 'PRODUCT_NOT_STOCK_CONTROLLED',
        message: `Line ${it.lineNumber}: product ${p.code} is not stock-controlled; the line posts no stock`,
        blocksConfirmation: false,
        lineNumber: it.lineNumber,
      });
    }
  }
  return checks;
}

export async function loadDocumentState(em: EntityManager, doc: EntryDocument): Promise<DocumentState> {
  const [items, installments] = [await loadItems(em, doc.companyId, doc.id), await loadInstallments(em, doc.companyId, doc.id)];
  const input = storedDraftInput(doc, items, installments);
  const fiscal = await loadFiscalContext(
    em,
    doc.companyId,
    doc.filialId,
    items.map((i) => i.cfop),
  );
  const computed = computeDocument({ ...input, entryDate: doc.entryDate, fiscal, supplierDocument: doc.supplierDocument });
  const productList = await loadProducts(
    em,
    doc.companyId,
    items.map((i) => i.productId).filter((p): p is number => p !== null),
  );
  const products = new Map(productList.map((p) => [p.id, p]));
  return { doc, items, installments, computed, products, checks: [...computed.checks, ...productChecks(computed.items, products)], fiscal };
}
