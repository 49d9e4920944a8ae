import { toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { NfeInbound } from './entities/nfe-inbound.entity';

/*
 * The payload of nfe.inbound.* events (hashids only), built inside the transactions that publish them
 * (this module's services and dfe's ingest). Kept apart from the HTTP mapper so that services
 * never import the mapper.
 */

export const toInboundEventData = (
  n: Pick<
    NfeInbound,
    'id' | 'filialId' | 'accessKey' | 'issuerDocument' | 'total' | 'importStatus' | 'entryDocumentId' | 'source' | 'kind'
  >,
) => ({
  inboundId: encodeId('nfe-inbound', n.id),
  filialId: encodeId('filial', n.filialId),
  accessKey: n.accessKey,
  issuerDocument: n.issuerDocument,
  total: toJsonNumber(n.total, 'amount'),
  kind: n.kind,
  source: n.source,
  importStatus: n.importStatus,
  entryDocumentId: encodeOptionalId('entry-document', n.entryDocumentId),
});
