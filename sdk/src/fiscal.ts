import { CallOptions, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

/** `/api/fiscal`: the tax engine's preview and the company's fiscal data (tax groups, operation rules, UF rates, Lei 12.741 table). */
export class Fiscal {
  constructor(private readonly http: HttpClient) {}

  /** POST /fiscal/preview — the computed document of a sales order, a fulfilment or a free body; writes nothing. */
  preview(body: BodyOf<'/api/fiscal/preview', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/preview', 'post'>> {
    return this.http.request({ method: 'POST', path: '/fiscal/preview', body, options });
  }

  /** GET /fiscal/tax-groups */
  taxGroups(query: QueryOf<'/api/fiscal/tax-groups', 'get'> = {}, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/tax-groups', 'get'>> {
    return this.http.request({ method: 'GET', path: '/fiscal/tax-groups', query: query as QueryParams, options });
  }

  /** GET /fiscal/tax-groups/:id */
  taxGroup(id: string, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/tax-groups/{id}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/fiscal/tax-groups/${seg(id)}`, options });
  }

  /** POST /fiscal/tax-groups (Idempotency-Key sent). */
  createTaxGroup(body: BodyOf<'/api/fiscal/tax-groups', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/tax-groups', 'post'>> {
    return this.http.request({ method: 'POST', path: '/fiscal/tax-groups', body, idempotent: true, options });
  }

  /** PATCH /fiscal/tax-groups/:id (needs the version read). */
  updateTaxGroup(id: string, body: BodyOf<'/api/fiscal/tax-groups/{id}', 'patch'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/tax-groups/{id}', 'patch'>> {
    return this.http.request({ method: 'PATCH', path: `/fiscal/tax-groups/${seg(id)}`, body, options });
  }

  /** GET /fiscal/operations */
  operations(query: QueryOf<'/api/fiscal/operations', 'get'> = {}, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/operations', 'get'>> {
    return this.http.request({ method: 'GET', path: '/fiscal/operations', query: query as QueryParams, options });
  }

  /** GET /fiscal/operations/:id */
  operation(id: string, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/operations/{id}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/fiscal/operations/${seg(id)}`, options });
  }

  /** POST /fiscal/operations (Idempotency-Key sent). */
  createOperation(body: BodyOf<'/api/fiscal/operations', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/operations', 'post'>> {
    return this.http.request({ method: 'POST', path: '/fiscal/operations', body, idempotent: true, options });
  }

  /** PATCH /fiscal/operations/:id (needs the version read). */
  updateOperation(id: string, body: BodyOf<'/api/fiscal/operations/{id}', 'patch'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/operations/{id}', 'patch'>> {
    return this.http.request({ method: 'PATCH', path: `/fiscal/operations/${seg(id)}`, body, options });
  }

  /** GET /fiscal/uf-rates — shipped rows and the company's overrides. */
  ufRates(query: QueryOf<'/api/fiscal/uf-rates', 'get'> = {}, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/uf-rates', 'get'>> {
    return this.http.request({ method: 'GET', path: '/fiscal/uf-rates', query: query as QueryParams, options });
  }

  /** POST /fiscal/uf-rates — a company override (Idempotency-Key sent). */
  createUfRate(body: BodyOf<'/api/fiscal/uf-rates', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/uf-rates', 'post'>> {
    return this.http.request({ method: 'POST', path: '/fiscal/uf-rates', body, idempotent: true, options });
  }

  /** POST /fiscal/approximate-taxes — loads the Lei 12.741 table, replacing the company's (Idempotency-Key sent). */
  loadApproximateTaxes(body: BodyOf<'/api/fiscal/approximate-taxes', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal/approximate-taxes', 'post'>> {
    return this.http.request({ method: 'POST', path: '/fiscal/approximate-taxes', body, idempotent: true, options });
  }
}
