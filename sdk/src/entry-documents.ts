import { CallOptions, HttpClient, seg } from './http';
import type { ApplyProductMapResult, EntryDocument, EntryDocumentCancelPreview, LineReviewInput } from './types';

const BASE = '/entry-document';

/** `/api/entry-document`: reading a document and reviewing its lines (further operations join here). */
export class EntryDocuments {
  constructor(private readonly http: HttpClient) {}

  /** GET /entry-document/detail/:id — items (with ids for the review), installments, payables. */
  detail(id: string, options?: CallOptions): Promise<EntryDocument> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** PATCH /entry-document/lines/:id — review lines by id (needs the version read). */
  reviewLines(id: string, version: number, lines: LineReviewInput[], options?: CallOptions): Promise<EntryDocument> {
    return this.http.request({ method: 'PATCH', path: `${BASE}/lines/${seg(id)}`, body: { version, lines }, options });
  }

  /** POST /entry-document/apply-product-map/:id — resolve PENDING lines through the product map again (Idempotency-Key sent). */
  applyProductMap(id: string, version: number, options?: CallOptions): Promise<ApplyProductMapResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/apply-product-map/${seg(id)}`, body: { version }, idempotent: true, options });
  }

  /** GET /entry-document/cancel-preview/:id — what cancel reverses and what blocks it (e.g. a payment that stands). */
  cancelPreview(id: string, options?: CallOptions): Promise<EntryDocumentCancelPreview> {
    return this.http.request({ method: 'GET', path: `${BASE}/cancel-preview/${seg(id)}`, options });
  }
}
