import { CallOptions, filialOf, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

const BASE = '/entry-document/product-map';

/** `/api/entry-document/product-map`: the supplier-code → product map invoices are matched through. */
export class ProductMap {
  constructor(private readonly http: HttpClient) {}

  /** POST …/match — candidates for supplier lines. */
  match(body: BodyOf<'/api/entry-document/product-map/match', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/match', 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/match`, body, options });
  }

  /** POST …/link (Idempotency-Key sent). */
  link(body: BodyOf<'/api/entry-document/product-map/link', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/link', 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/link`, body, idempotent: true, options });
  }

  /** POST …/auto-create — create products for unmatched lines and map them (Idempotency-Key sent). */
  autoCreate(body: BodyOf<'/api/entry-document/product-map/auto-create', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/auto-create', 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/auto-create`, body, idempotent: true, options });
  }

  /** GET …/search */
  search(query: QueryOf<'/api/entry-document/product-map/search', 'get'>, options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/search', 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/search`, query: query as QueryParams, options });
  }

  /** GET …/next-code — the next free product code. */
  nextCode(options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/next-code', 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/next-code`, options });
  }

  /** GET …/history/:supplierDocument/:filialId */
  history(
    supplierDocument: string,
    query: QueryOf<'/api/entry-document/product-map/history/{supplierDocument}/{filialId}', 'get'> & { filialId?: string } = {} as never,
    options?: CallOptions,
  ): Promise<ResponseOf<'/api/entry-document/product-map/history/{supplierDocument}/{filialId}', 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/history/${seg(supplierDocument)}/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** PATCH …/:id/conversion-factor */
  setConversionFactor(id: string, body: BodyOf<'/api/entry-document/product-map/{id}/conversion-factor', 'patch'>, options?: CallOptions): Promise<ResponseOf<'/api/entry-document/product-map/{id}/conversion-factor', 'patch'>> {
    return this.http.request({ method: 'PATCH', path: `${BASE}/${seg(id)}/conversion-factor`, body, options });
  }

  /** DELETE …/:id */
  remove(id: string, options?: CallOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: `${BASE}/${seg(id)}`, options });
  }
}
