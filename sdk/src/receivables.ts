import { CallOptions, HttpClient, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

const BASE = '/receivables';

export type ReceivablesList = ResponseOf<'/api/receivables/{filialId}', 'get'>;
export type ReceivableDetail = ResponseOf<'/api/receivables/detail/{id}', 'get'>;
export type ReceiptRequest = BodyOf<'/api/receivables/receive/{id}', 'post'>;
export type ReceiptResult = ResponseOf<'/api/receivables/receive/{id}', 'post'>;
export type FindReceivablesQuery = QueryOf<'/api/receivables/{filialId}', 'get'>;
export type ReceivablesExportQuery = QueryOf<'/api/receivables/export/{filialId}', 'get'>;
export type CustomerStatementQuery = QueryOf<'/api/receivables/statement/{filialId}', 'get'>;
export type CustomerStatement = ResponseOf<'/api/receivables/statement/{filialId}', 'get'>;
export type ReceivableAuditTrail = ResponseOf<'/api/receivables/audit/{id}', 'get'>;

/** `/api/receivables`: what customers and card acquirers owe, receipts and their reversals, aging, statements. */
export class Receivables {
  constructor(private readonly http: HttpClient) {}

  private filial(filialId: string | undefined): string {
    const f = filialId ?? this.http.filialId;
    if (!f) throw new TypeError('needs a filialId (in the query or the client options)');
    return f;
  }

  /** GET /receivables/:filialId — the client's filial unless `filialId` is given; with totals and aging. */
  list(query: FindReceivablesQuery & { filialId?: string } = {}, options?: CallOptions): Promise<ReceivablesList> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(this.filial(filialId))}`, query: { ...rest }, options });
  }

  /** GET /receivables/detail/:id — with its receipts. */
  detail(id: string, options?: CallOptions): Promise<ReceivableDetail> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** POST /receivables/receive/:id (Idempotency-Key sent). */
  receive(id: string, body: ReceiptRequest, options?: CallOptions): Promise<ReceiptResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/receive/${seg(id)}`, body, idempotent: true, options });
  }

  /** POST /receivables/reverse-receipt/:receiptId (Idempotency-Key sent). */
  reverseReceipt(receiptId: string, reason: string, options?: CallOptions): Promise<ReceiptResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/reverse-receipt/${seg(receiptId)}`, body: { reason }, idempotent: true, options });
  }

  /** GET /receivables/statement/:filialId?customerId= — the customer's receivables with receipts, totals, aging and credits. */
  statement(query: CustomerStatementQuery & { filialId?: string }, options?: CallOptions): Promise<CustomerStatement> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/statement/${seg(this.filial(filialId))}`, query: { ...rest }, options });
  }

  /** GET /receivables/export/:filialId — the list's rows as CSV text (the same filters). */
  exportCsv(query: ReceivablesExportQuery & { filialId?: string } = {}, options?: CallOptions): Promise<string> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/export/${seg(this.filial(filialId))}`, query: { ...rest }, read: 'text', options });
  }

  /** GET /receivables/audit/:id — the receivable's and its receipts' audit trail, creation included. */
  audit(id: string, options?: CallOptions): Promise<ReceivableAuditTrail> {
    return this.http.request({ method: 'GET', path: `${BASE}/audit/${seg(id)}`, options });
  }
}
