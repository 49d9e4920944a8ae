import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { TransferDetail } from './transfers.service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toTransferDto = ({ transfer: t, items, invoices }: TransferDetail) => ({
  id: encodeId('transfer', t.id),
  fromFilialId: encodeId('filial', t.fromFilialId),
  toFilialId: encodeId('filial', t.toFilialId),
  status: t.status,
  total: toJsonNumber(t.total, 'amount'),
  notes: t.notes,
  items: items.map((i) => ({
    lineNumber: i.lineNumber,
    productId: encodeId('product', i.productId),
    quantity: toJsonNumber(i.quantity, 'quantity'),
    unitCost: toJsonNumber(i.unitCost, 'cost'),
    total: toJsonNumber(i.total, 'amount'),
  })),
  invoices: invoices.map((n) => ({
    id: encodeId('invoice', n.invoiceId),
    status: n.status,
    accessKey: n.accessKey,
    series: n.series,
    number: n.number,
    live: n.live,
  })),
  createdBy: t.createdBy,
  authorizedAt: iso(t.authorizedAt),
  cancelledAt: iso(t.cancelledAt),
  version: t.version,
  createdAt: iso(t.createdAt),
  updatedAt: iso(t.updatedAt),
});
