import { CallOptions, HttpClient, seg } from './http';
import type { ApportionPreview, ApportionRequest, ApportionResult, CteCancelResult, CteDetail, CtePreview, CteStageResult, Cte, FindCtesQuery, Page } from './types';

const BASE = '/entry-document/cte';

/** `/api/entry-document/cte`: freight invoices (CT-e) staged, apportioned onto the goods they carried, cancelled. */
export class Ctes {
  constructor(private readonly http: HttpClient) {}

  /** POST /entry-document/cte/preview — the parsed CT-e and its validation report against the client's filial; nothing stored. */
  preview(xml: string, options?: CallOptions): Promise<CtePreview> {
    return this.http.request({ method: 'POST', path: `${BASE}/preview`, body: { xml }, options });
  }

  /** POST /entry-document/cte/stage-xml — validate (the filial must be the payer) and store (Idempotency-Key sent). */
  stage(xml: string, options?: CallOptions): Promise<CteStageResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/stage-xml`, body: { xml }, idempotent: true, options });
  }

  /** GET /entry-document/cte/list/:filialId — the client's filial unless `filialId` is given. */
  list(query: FindCtesQuery & { filialId?: string } = {}, options?: CallOptions): Promise<Page<Cte>> {
    const { filialId = this.http.filialId, ...rest } = query;
    if (!filialId) throw new TypeError('list() needs a filialId (in the query or the client options)');
    return this.http.request({ method: 'GET', path: `${BASE}/list/${seg(filialId)}`, query: { ...rest }, options });
  }

  /** GET /entry-document/cte/detail/:id — document, report, NF-e links, allocations, payables. */
  detail(id: string, options?: CallOptions): Promise<CteDetail> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** POST /entry-document/cte/apportion-preview/:id — what apportioning would do; nothing written. */
  apportionPreview(id: string, body: ApportionRequest = {}, options?: CallOptions): Promise<ApportionPreview> {
    return this.http.request({ method: 'POST', path: `${BASE}/apportion-preview/${seg(id)}`, body, options });
  }

  /** POST /entry-document/cte/apportion/:id — apportion the freight and create the carrier's payables (Idempotency-Key sent). */
  apportion(id: string, body: ApportionRequest & { version?: number } = {}, options?: CallOptions): Promise<ApportionResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/apportion/${seg(id)}`, body, idempotent: true, options });
  }

  /** GET /entry-document/cte/cancel-preview/:id — what cancelling reverses and what blocks it. */
  cancelPreview(id: string, options?: CallOptions): Promise<CteCancelResult> {
    return this.http.request({ method: 'GET', path: `${BASE}/cancel-preview/${seg(id)}`, options });
  }

  /** POST /entry-document/cte/cancel/:id — reverse the freight and cancel the payables (Idempotency-Key sent). */
  cancel(id: string, body: { reason?: string; version?: number } = {}, options?: CallOptions): Promise<CteCancelResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/cancel/${seg(id)}`, body, idempotent: true, options });
  }
}
