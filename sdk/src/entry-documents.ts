import { CallOptions, filialOf, HttpClient, seg } from './http';
import { OPERATIONS } from './operations';
import { ArgsOf, callOperation, ItemOf, iterateOperation, ResultOf } from './operation';
import type { ApplyProductMapResult, EntryDocument, EntryDocumentCancelPreview, LineReviewInput } from './types';

const BASE = '/entry-document';

type ListQuery = NonNullable<ArgsOf<'getApiEntryDocumentListFilialId'>['query']>;

/** `/api/entry-document`: the manual flow (create, list, confirm preview, confirm), reading a document and reviewing its lines. */
export class EntryDocuments {
  constructor(private readonly http: HttpClient) {}

  /** POST /entry-document — a manual entry document (DRAFT); Idempotency-Key sent. */
  create(body: ArgsOf<'postApiEntryDocument'>['body'], options?: CallOptions): Promise<ResultOf<'postApiEntryDocument'>> {
    return callOperation(this.http, OPERATIONS.postApiEntryDocument, { body }, options);
  }

  /** GET /entry-document/list/:filialId — a page of the filial's documents (the client's filial unless `filialId`). */
  list(query: ListQuery = {}, filialId?: string, options?: CallOptions): Promise<ResultOf<'getApiEntryDocumentListFilialId'>> {
    return callOperation(this.http, OPERATIONS.getApiEntryDocumentListFilialId, { filialId: filialOf(this.http, filialId), query }, options);
  }

  /** Every document of the list, page after page. */
  listAll(query: ListQuery = {}, filialId?: string, options?: CallOptions): AsyncGenerator<ItemOf<'getApiEntryDocumentListFilialId'>> {
    return iterateOperation(this.http, OPERATIONS.getApiEntryDocumentListFilialId, { filialId: filialOf(this.http, filialId), query }, options);
  }

  /** GET /entry-document/confirm-preview/:id — exactly what confirm will post: movements, payables, warnings, blocking problems. */
  confirmPreview(id: string, options?: CallOptions): Promise<ResultOf<'getApiEntryDocumentConfirmPreviewId'>> {
    return callOperation(this.http, OPERATIONS.getApiEntryDocumentConfirmPreviewId, { id }, options);
  }

  /** POST /entry-document/confirm/:id — post the stock and create the payables; Idempotency-Key sent. */
  confirm(id: string, options?: CallOptions): Promise<ResultOf<'postApiEntryDocumentConfirmId'>> {
    return callOperation(this.http, OPERATIONS.postApiEntryDocumentConfirmId, { id }, options);
  }

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
