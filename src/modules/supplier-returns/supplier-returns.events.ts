import { toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { SupplierReturnItem } from './entities/supplier-return-item.entity';
import type { SupplierReturn } from './entities/supplier-return.entity';

/** The event payload of a supplier return: hashids and JSON numbers. */
export const supplierReturnData = (r: SupplierReturn, items: SupplierReturnItem[]) => ({
  supplierReturnId: encodeId('supplier-return', r.id),
  code: r.code,
  status: r.status,
  entryDocumentId: encodeId('entry-document', r.entryDocumentId),
  invoiceId: encodeOptionalId('invoice', r.invoiceId),
  referencedKey: r.referencedKey,
  supplierId: encodeId('supplier', r.supplierId),
  total: toJsonNumber(r.total, 'amount'),
  stockValue: toJsonNumber(r.stockValue, 'amount'),
  creditsReversed: {
    icms: toJsonNumber(r.creditIcms, 'amount'),
    pis: toJsonNumber(r.creditPis, 'amount'),
    cofins: toJsonNumber(r.creditCofins, 'amount'),
    ipi: toJsonNumber(r.creditIpi, 'amount'),
  },
  payablesDeducted: toJsonNumber(r.payablesDeducted, 'amount'),
  supplierCredit: toJsonNumber(r.supplierCredit, 'amount'),
  items: items.map((i) => ({
    entryDocumentItemId: encodeId('entry-document-item', i.entryDocumentItemId),
    productId: encodeOptionalId('product', i.productId),
    quantity: toJsonNumber(i.quantity, 'quantity'),
    stockQuantity: toJsonNumber(i.stockQuantity, 'quantity'),
    entryUnitCost: toJsonNumber(i.entryUnitCost, 'cost'),
    total: toJsonNumber(i.total, 'amount'),
  })),
});
