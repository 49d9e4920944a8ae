import { CallOptions, filialOf, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

/** One master-data resource of `/api/catalog`: list (paginated), read, create (Idempotency-Key sent), edit. */
class Resource<L extends '/api/catalog/products' | '/api/catalog/customers' | '/api/catalog/sellers' | '/api/catalog/suppliers', I extends `${L}/{id}`> {
  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
  ) {}

  /** GET — search and filters, paginated. */
  list(query: QueryOf<L, 'get'> = {} as QueryOf<L, 'get'>, options?: CallOptions): Promise<ResponseOf<L, 'get'>> {
    return this.http.request({ method: 'GET', path: this.base, query: query as QueryParams, options });
  }

  /** GET …/:id */
  get(id: string, options?: CallOptions): Promise<ResponseOf<I, 'get'>> {
    return this.http.request({ method: 'GET', path: `${this.base}/${seg(id)}`, options });
  }

  /** POST (Idempotency-Key sent). */
  create(body: BodyOf<L, 'post'>, options?: CallOptions): Promise<ResponseOf<L, 'post'>> {
    return this.http.request({ method: 'POST', path: this.base, body, idempotent: true, options });
  }

  /** PATCH …/:id */
  update(id: string, body: BodyOf<I, 'patch'>, options?: CallOptions): Promise<ResponseOf<I, 'patch'>> {
    return this.http.request({ method: 'PATCH', path: `${this.base}/${seg(id)}`, body, options });
  }
}

/** `/api/catalog`: products, customers, sellers, suppliers, payment methods and stock balances. */
export class Catalog {
  readonly products: Resource<'/api/catalog/products', '/api/catalog/products/{id}'>;
  readonly customers: Resource<'/api/catalog/customers', '/api/catalog/customers/{id}'>;
  readonly sellers: Resource<'/api/catalog/sellers', '/api/catalog/sellers/{id}'>;
  readonly suppliers: Resource<'/api/catalog/suppliers', '/api/catalog/suppliers/{id}'>;

  constructor(private readonly http: HttpClient) {
    this.products = new Resource(http, '/catalog/products');
    this.customers = new Resource(http, '/catalog/customers');
    this.sellers = new Resource(http, '/catalog/sellers');
    this.suppliers = new Resource(http, '/catalog/suppliers');
  }

  /** GET /catalog/payment-methods */
  paymentMethods(query: QueryOf<'/api/catalog/payment-methods', 'get'> = {}, options?: CallOptions): Promise<ResponseOf<'/api/catalog/payment-methods', 'get'>> {
    return this.http.request({ method: 'GET', path: '/catalog/payment-methods', query: query as QueryParams, options });
  }

  /** POST /catalog/payment-methods (Idempotency-Key sent). */
  createPaymentMethod(body: BodyOf<'/api/catalog/payment-methods', 'post'>, options?: CallOptions): Promise<ResponseOf<'/api/catalog/payment-methods', 'post'>> {
    return this.http.request({ method: 'POST', path: '/catalog/payment-methods', body, idempotent: true, options });
  }

  /** GET /catalog/stock/:filialId — balances and average costs (the client's filial unless given). */
  stock(query: QueryOf<'/api/catalog/stock/{filialId}', 'get'> & { filialId?: string } = {}, options?: CallOptions): Promise<ResponseOf<'/api/catalog/stock/{filialId}', 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `/catalog/stock/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }
}
