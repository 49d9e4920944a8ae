import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { EntryDocument } from './entities/entry-document.entity';

/*
 * The payload of entry-document events (hashids only), built inside the transactions that publish
 * them. Kept apart from the HTTP mapper so that use cases never import the mapper.
 */

export const toEventData = (d: EntryDocument) => ({
  entryDocumentId: encodeId('entry-document', d.id),
  filialId: encodeId('filial', d.filialId),
  status: d.status,
  origin: d.origin,
  model: d.model,
  series: d.series,
  number: d.number,
  accessKey: d.accessKey,
  supplierId: encodeId('supplier', d.supplierId),
  supplierDocument: d.supplierDocument,
  total: toJsonNumber(d.total, 'amount'),
  version: d.version,
});
