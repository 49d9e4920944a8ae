import { storedToJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { CountDetail } from './inventory-counts.service';

export function toCountDto(d: CountDetail) {
  const c = d.count;
  const closed = c.status === 'CLOSED';
  return {
    id: encodeId('inventory-count', c.id),
    filialId: encodeId('filial', c.filialId),
    status: c.status,
    countDate: c.countDate,
    motive: c.motive,
    notes: c.notes,
    lineCount: c.lineCount,
    countedLines: d.lines.filter((l) => l.countedQuantity !== null).length,
    blind: d.blind,
    totalValue: closed ? storedToJsonNumber(c.totalValue, 'amount') : null,
    createdBy: c.createdBy,
    closedBy: c.closedBy,
    closedAt: c.closedAt ? c.closedAt.toISOString() : null,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    lines: d.lines.map((l) => ({
      lineNumber: l.lineNumber,
      productId: encodeId('product', l.productId),
      code: l.product.code,
      description: l.product.name,
      unit: l.product.unit,
      countedQuantity: storedToJsonNumber(l.countedQuantity, 'quantity'),
      countedBy: l.countedBy,
      countedAt: l.countedAt ? l.countedAt.toISOString() : null,
      expectedQuantity: d.blind ? null : storedToJsonNumber(l.expectedQuantity, 'quantity'),
      difference: d.blind ? null : storedToJsonNumber(l.difference, 'quantity'),
      snapshotQuantity: storedToJsonNumber(l.snapshotQuantity, 'quantity'),
      unitCost: storedToJsonNumber(l.unitCost, 'cost'),
      value: storedToJsonNumber(l.snapshotValue, 'amount'),
      reason: l.reason,
    })),
  };
}
