import { CallOptions, HttpClient, seg } from './http';
import type { FindPayablesQuery, Payable, PayableDetail, PayablesPage, PaymentRequest, PaymentResult } from './types';

const BASE = '/entry-document/contas-pagar';

/** `/api/entry-document/contas-pagar`: payables, their payments and reversals. */
export class Payables {
  constructor(private readonly http: HttpClient) {}

  /** GET /entry-document/contas-pagar/:filialId — the client's filial unless `filialId` is given; with totals and aging. */
  list(query: FindPayablesQuery & { filialId?: string } = {}, options?: CallOptions): Promise<PayablesPage> {
    const { filialId = this.http.filialId, ...rest } = query;
    if (!filialId) throw new TypeError('list() needs a filialId (in the query or the client options)');
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(filialId)}`, query: { ...rest }, options });
  }

  /** GET /entry-document/contas-pagar/documento/:entryDocumentId */
  async ofDocument(entryDocumentId: string, options?: CallOptions): Promise<Payable[]> {
    const res = await this.http.request<{ data: Payable[] }>({ method: 'GET', path: `${BASE}/documento/${seg(entryDocumentId)}`, options });
    return res.data;
  }

  /** GET /entry-document/contas-pagar/detail/:id — with its payments. */
  detail(id: string, options?: CallOptions): Promise<PayableDetail> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** POST /entry-document/contas-pagar/pay/:id (Idempotency-Key sent). */
  pay(id: string, body: PaymentRequest, options?: CallOptions): Promise<PaymentResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/pay/${seg(id)}`, body, idempotent: true, options });
  }

  /** POST /entry-document/contas-pagar/reverse-payment/:paymentId (Idempotency-Key sent). */
  reversePayment(paymentId: string, reason: string, options?: CallOptions): Promise<PaymentResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/reverse-payment/${seg(paymentId)}`, body: { reason }, idempotent: true, options });
  }
}
