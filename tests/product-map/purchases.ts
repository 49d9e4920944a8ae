import { dataSource } from '../../src/core/db/data-source';
import { Dec, DecimalInput } from '../../src/core/decimal';
import { EntryDocument, EntryDocumentStatus } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import type { TestTenant } from '../support/tenant';

let docNumber = 1000;

/** An entry document with items, written through the entry-document entities. */
export async function makePurchase(
  t: TestTenant,
  opts: {
    filialIndex?: number;
    supplierDocument: string;
    status?: EntryDocumentStatus;
    entryDate: string;
    lines: {
      code: string;
      productId: number | null;
      quantity: DecimalInput;
      unitPrice: DecimalInput;
      conversionFactor?: DecimalInput;
      unit?: string;
    }[];
  },
): Promise<EntryDocument> {
  const em = dataSource.manager;
  const number = String(docNumber++);
  const doc = await em.save(
    em.create(EntryDocument, {
      companyId: t.companyId,
      filialId: t.filialIds[opts.filialIndex ?? 0],
      status: opts.status ?? 'CONFIRMED',
      origin: 'MANUAL',
      model: '55',
      series: '1',
      number,
      accessKey: null,
      issueDate: opts.entryDate,
      entryDate: opts.entryDate,
      supplierId: 1,
      supplierDocument: opts.supplierDocument,
      supplierName: 'Fornecedor',
      supplierStateRegistration: null,
      supplierUf: 'SP',
      operationNature: null,
      notes: null,
      expectedTotals: null,
      itemCount: opts.lines.length,
      pendingItemCount: 0,
      cancelReason: null,
      confirmedAt: null,
      cancelledAt: null,
    } as Partial<EntryDocument>),
  );
  const tax = { cst: null, base: null, rate: null, value: null };
  await em.save(
    opts.lines.map((l, i) =>
      em.create(EntryDocumentItem, {
        companyId: t.companyId,
        entryDocumentId: doc.id,
        lineNumber: i + 1,
        productId: l.productId,
        reviewStatus: l.productId ? 'MATCHED' : 'PENDING',
        supplierProductCode: l.code,
        description: `Item ${l.code}`,
        ncm: null,
        cfop: '1102',
        unit: l.unit ?? 'CX',
        quantity: new Dec(l.quantity),
        unitPrice: new Dec(l.unitPrice),
        total: new Dec(l.quantity).times(l.unitPrice).toDecimalPlaces(2),
        conversionFactor: new Dec(l.conversionFactor ?? 1),
        stockQuantity: new Dec(l.quantity).times(l.conversionFactor ?? 1),
        taxes: { icms: tax, icmsSt: tax, ipi: tax, pis: tax, cofins: tax },
      } as Partial<EntryDocumentItem>),
    ),
  );
  return doc;
}
