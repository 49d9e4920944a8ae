import { CallOptions, filialOf, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

type WithFilial<Q> = Q & { filialId?: string };

/** `/api/returns`: customer returns (restock and refund). */
export class Returns {
  constructor(private readonly http: HttpClient) {}

  /** GET /returns/returnable-items/:filialId — fulfilled lines still returnable. */
  returnableItems(query: WithFilial<QueryOf<'/api/returns/returnable-items/{filialId}', 'get'>>, options?: CallOptions): Promise<ResponseOf<'/api/returns/returnable-items/{filialId}', 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `/returns/returnable-items/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** GET /returns/list/:filialId */
  list(query: WithFilial<QueryOf<'/api/returns/list/{filialId}', 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<'/api/returns/list/{filialId}', 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `/returns/list/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** GET /returns/detail/:id */
  detail(id: string, options?: CallOptions): Promise<ResponseOf<'/api/returns/detail/{id}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/returns/detail/${seg(id)}`, options });
  }

  /** POST /returns/:filialId — register a return (Idempotency-Key sent). */
  register(body: BodyOf<'/api/returns/{filialId}', 'post'>, filialId?: string, options?: CallOptions): Promise<ResponseOf<'/api/returns/{filialId}', 'post'>> {
    return this.http.request({ method: 'POST', path: `/returns/${seg(filialOf(this.http, filialId))}`, body, idempotent: true, options });
  }
}
