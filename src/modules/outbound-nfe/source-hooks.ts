import { Dec } from '../../core/decimal';
import { documentSource, DocumentSourceProvider, SourceDocumentOutcome } from './document-sources';
import type { OutboundNfe } from './entities/outbound-nfe.entity';

/** The registered owner of a document's source; null for billing (fulfilment, order). */
export function ownerOf(doc: OutboundNfe): { provider: DocumentSourceProvider } | null {
  if (doc.source === 'FULFILLMENT' || doc.source === 'ORDER' || doc.sourceId === null) return null;
  return { provider: documentSource(doc.source) };
}

/** The typed payload a provider's hooks receive. */
export function outcomeOf(doc: OutboundNfe): SourceDocumentOutcome {
  if (doc.source === 'FULFILLMENT' || doc.source === 'ORDER' || doc.sourceId === null)
    throw new Error(`NF-e ${doc.id} bills a sale: it has no registered source`);
  return {
    kind: doc.source,
    sourceId: doc.sourceId,
    invoiceId: doc.id,
    filialId: doc.filialId,
    accessKey: doc.accessKey,
    series: doc.series,
    number: doc.number,
    total: doc.total,
    totals: Object.fromEntries(Object.entries(doc.summary.totals).map(([k, v]) => [k, new Dec(v)])),
    protocol: doc.protocol,
    authorizedAt: doc.authorizedAt,
  };
}
