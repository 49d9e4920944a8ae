import { NO_UNIT, readerOf } from '../core/db/transaction';
import { encodeId, ResourceType } from '../core/hashids';
import { DemoDocument } from './demo-document.entity';

/* What `demo_document` records of the demo's documents: read by the seed (what is still to make) and by the OpenAPI examples (demo-ids.ts). */

/** A kind is a hashid resource type (its id is an example) or a document the examples do not name. */
export type DemoDocumentKind = ResourceType | 'quote';

export type RecordedDemoDocuments = Partial<Record<DemoDocumentKind, string>>;

/** The kinds recorded for the demo company, as hashids (kinds of no hashid type are kept as row ids). */
export async function recordedDemoDocuments(companyId: number): Promise<RecordedDemoDocuments> {
  const rows = await readerOf(NO_UNIT).find(DemoDocument, { where: { companyId }, order: { id: 'ASC' } });
  return Object.fromEntries(
    rows.map((r) => [r.kind, r.kind === 'quote' ? encodeId('sales-order', r.documentId) : encodeId(r.kind as ResourceType, r.documentId)]),
  );
}
