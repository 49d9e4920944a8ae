import { CallOptions, filialOf, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

type P = '/api/invoices';
type WithFilial<Q> = Q & { filialId?: string };

/** `/api/invoices`: outbound NF-e (modelo 55) — preview, issue (exactly once), events, downloads, séries and voided numbers. */
export class Invoices {
  constructor(private readonly http: HttpClient) {}

  /** POST /invoices/preview — the document a fulfilment (or an order) would get; no number taken. */
  preview(body: BodyOf<`${P}/preview`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/preview`, 'post'>> {
    return this.http.request({ method: 'POST', path: '/invoices/preview', body, options });
  }

  /** POST /invoices/issue — number, sign, store, authorize (Idempotency-Key sent: a retry resumes the same document). */
  issue(body: BodyOf<`${P}/issue`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/issue`, 'post'>> {
    return this.http.request({ method: 'POST', path: '/invoices/issue', body, idempotent: true, options });
  }

  /** GET /invoices/detail/:id — one NF-e with its events. */
  get(id: string, options?: CallOptions): Promise<ResponseOf<`${P}/detail/{id}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `/invoices/detail/${seg(id)}`, options });
  }

  /** GET /invoices/list/:filialId — the filial's NF-e, newest first. */
  list(query: WithFilial<QueryOf<`${P}/list/{filialId}`, 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<`${P}/list/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `/invoices/list/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** POST /invoices/:id/cancel — event 110111 within the UF's deadline. */
  cancel(id: string, body: BodyOf<`${P}/{id}/cancel`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/{id}/cancel`, 'post'>> {
    return this.http.request({ method: 'POST', path: `/invoices/${seg(id)}/cancel`, body, idempotent: true, options });
  }

  /** POST /invoices/:id/correct — carta de correção (110110). */
  correct(id: string, body: BodyOf<`${P}/{id}/correct`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/{id}/correct`, 'post'>> {
    return this.http.request({ method: 'POST', path: `/invoices/${seg(id)}/correct`, body, idempotent: true, options });
  }

  /** POST /invoices/:id/resend — a REJECTED NF-e corrected and sent again with the same number. */
  resend(id: string, body: BodyOf<`${P}/{id}/resend`, 'post'> = {}, options?: CallOptions): Promise<ResponseOf<`${P}/{id}/resend`, 'post'>> {
    return this.http.request({ method: 'POST', path: `/invoices/${seg(id)}/resend`, body, idempotent: true, options });
  }

  /** POST /invoices/:id/void — abandon a REJECTED NF-e: its number is voided. */
  void(id: string, body: BodyOf<`${P}/{id}/void`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/{id}/void`, 'post'>> {
    return this.http.request({ method: 'POST', path: `/invoices/${seg(id)}/void`, body, idempotent: true, options });
  }

  /** POST /invoices/:id/email — send the XML and DANFE to the customer (or `to`). */
  email(id: string, body: BodyOf<`${P}/{id}/email`, 'post'> = {}, options?: CallOptions): Promise<ResponseOf<`${P}/{id}/email`, 'post'>> {
    return this.http.request({ method: 'POST', path: `/invoices/${seg(id)}/email`, body, options });
  }

  /** GET /invoices/:id/xml — the nfeProc. */
  xml(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/invoices/${seg(id)}/xml`, read: 'text', options });
  }

  /** GET /invoices/:id/danfe — the DANFE PDF. */
  danfe(id: string, options?: CallOptions): Promise<Uint8Array> {
    return this.http.request({ method: 'GET', path: `/invoices/${seg(id)}/danfe`, read: 'bytes', options });
  }

  /** GET /invoices/:id/cancellation/xml — the procEventoNFe of the cancellation (110111). */
  cancellationXml(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/invoices/${seg(id)}/cancellation/xml`, read: 'text', options });
  }

  /** GET /invoices/:id/corrections/:sequence/xml — the procEventoNFe of one carta de correção (110110). */
  correctionXml(id: string, sequence: number, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/invoices/${seg(id)}/corrections/${seg(String(sequence))}/xml`, read: 'text', options });
  }

  /** GET /invoices/series/:seriesId/numbers/:number/xml — the procInutNFe that voided a number of the série. */
  voidedNumberXml(seriesId: string, number: number, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/invoices/series/${seg(seriesId)}/numbers/${seg(String(number))}/xml`, read: 'text', options });
  }

  /** POST /invoices/void-numbers — inutilização of a range of a série. */
  voidNumbers(body: BodyOf<`${P}/void-numbers`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/void-numbers`, 'post'>> {
    return this.http.request({ method: 'POST', path: '/invoices/void-numbers', body, idempotent: true, options });
  }

  /** GET /invoices/series/:filialId — séries and next numbers. */
  series(filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/series/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `/invoices/series/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** PUT /invoices/series/:filialId — configure a série. */
  saveSeries(body: BodyOf<`${P}/series/{filialId}`, 'put'>, filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/series/{filialId}`, 'put'>> {
    return this.http.request({ method: 'PUT', path: `/invoices/series/${seg(filialOf(this.http, filialId))}`, body, options });
  }

  /** GET /invoices/series/:seriesId/numbers — every number's fate. */
  numbers(seriesId: string, query: QueryOf<`${P}/series/{seriesId}/numbers`, 'get'> = {}, options?: CallOptions): Promise<ResponseOf<`${P}/series/{seriesId}/numbers`, 'get'>> {
    return this.http.request({ method: 'GET', path: `/invoices/series/${seg(seriesId)}/numbers`, query: query as QueryParams, options });
  }
}
