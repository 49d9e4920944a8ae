import { CallOptions, filialOf, HttpClient, seg } from './http';
import type { BodyOf, ResponseOf } from './typed';

/** `/api/quick-sale`: a filial's counter-sale configuration (the sale itself is `sales.create` with flowMode QUICK_SALE). */
export class QuickSale {
  constructor(private readonly http: HttpClient) {}

  /** GET /quick-sale/configuration/:filialId */
  configuration(filialId?: string, options?: CallOptions): Promise<ResponseOf<'/api/quick-sale/configuration/{filialId}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/quick-sale/configuration/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** PUT /quick-sale/configuration/:filialId */
  configure(body: BodyOf<'/api/quick-sale/configuration/{filialId}', 'put'>, filialId?: string, options?: CallOptions): Promise<ResponseOf<'/api/quick-sale/configuration/{filialId}', 'put'>> {
    return this.http.request({ method: 'PUT', path: `/quick-sale/configuration/${seg(filialOf(this.http, filialId))}`, body, options });
  }

  /** GET /quick-sale/validate-configuration/:filialId — what blocks quick sales at the filial. */
  validate(filialId?: string, options?: CallOptions): Promise<ResponseOf<'/api/quick-sale/validate-configuration/{filialId}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/quick-sale/validate-configuration/${seg(filialOf(this.http, filialId))}`, options });
  }
}
