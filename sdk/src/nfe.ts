import { CallOptions, filialOf, HttpClient, QueryParams, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

const BASE = '/entry-document/nfe';
type WithFilial<Q> = Q & { filialId?: string };
type P = '/api/entry-document/nfe';

/** `/api/entry-document/nfe`: inbound NF-e — preview, stage, import; the filial's records, DANFE and deadlines; batch uploads. */
export class Nfe {
  constructor(private readonly http: HttpClient) {}

  /** POST …/preview — parse and validate an XML (or a stored record by accessKey); nothing stored. */
  preview(body: BodyOf<`${P}/preview`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/preview`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/preview`, body, options });
  }

  /** POST …/preview-import — the preview plus the product-map resolution and the draft an import would create. */
  previewImport(body: BodyOf<`${P}/preview-import`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/preview-import`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/preview-import`, body, options });
  }

  /** POST …/stage-xml — store the XML as the filial's inbound record (created false: already stored). */
  stage(xml: string, options?: CallOptions): Promise<ResponseOf<`${P}/stage-xml`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/stage-xml`, body: { xml }, idempotent: true, options });
  }

  /** POST …/importar-xml — validate, stage and import: the entry document DRAFT. */
  importXml(body: BodyOf<`${P}/importar-xml`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/importar-xml`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/importar-xml`, body, idempotent: true, options });
  }

  /** POST …/importar — import a staged record ({ inboundId } or { accessKey }). */
  import(body: BodyOf<`${P}/importar`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/importar`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/importar`, body, idempotent: true, options });
  }

  /** GET …/inbound/:filialId — the filial's inbound records (filters, paginated). */
  inbound(query: WithFilial<QueryOf<`${P}/inbound/{filialId}`, 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<`${P}/inbound/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** GET …/inbound/pendentes/:filialId — still to import. */
  pending(query: WithFilial<QueryOf<`${P}/inbound/pendentes/{filialId}`, 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<`${P}/inbound/pendentes/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/pendentes/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** GET …/inbound/detail/:id/:filialId — with the parsed invoice, its report and events. */
  detail(id: string, filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/inbound/detail/{id}/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/detail/${seg(id)}/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** GET …/inbound/xml/:id/:filialId — the stored XML as received. */
  xml(id: string, filialId?: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/xml/${seg(id)}/${seg(filialOf(this.http, filialId))}`, read: 'text', options });
  }

  /** GET …/inbound/danfe/:id/:filialId — the DANFE PDF. */
  danfe(id: string, filialId?: string, options?: CallOptions): Promise<Uint8Array> {
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/danfe/${seg(id)}/${seg(filialOf(this.http, filialId))}`, read: 'bytes', options });
  }

  /** GET …/inbound/deadlines/:id/:filialId — the record's manifestation deadlines. */
  deadlines(id: string, filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/inbound/deadlines/{id}/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/inbound/deadlines/${seg(id)}/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** GET …/manifestation-deadlines/:filialId — records whose deadline falls within N days. */
  upcomingDeadlines(
    query: WithFilial<QueryOf<`${P}/manifestation-deadlines/{filialId}`, 'get'>> = {} as never,
    options?: CallOptions,
  ): Promise<ResponseOf<`${P}/manifestation-deadlines/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/manifestation-deadlines/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }

  /** POST …/batch — a ZIP of XML files (application/zip), staged in the background: the job (202). */
  uploadBatch(zip: Uint8Array, options?: CallOptions): Promise<ResponseOf<`${P}/batch`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/batch`, raw: { data: zip, contentType: 'application/zip' }, idempotent: true, options });
  }

  /** GET …/batch/:id/:filialId — progress, counts and a page of file outcomes. */
  batch(id: string, query: WithFilial<QueryOf<`${P}/batch/{id}/{filialId}`, 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<`${P}/batch/{id}/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/batch/${seg(id)}/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }
}

/** `/api/entry-document/nfe` (tax authority): DF-e sync, key queries, downloads, manifestations, the A1 certificate. */
export class TaxAuthority {
  constructor(private readonly http: HttpClient) {}

  /** POST …/consultar — incremental DF-e sync of the client's filial. */
  sync(options?: CallOptions): Promise<ResponseOf<`${P}/consultar`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/consultar`, body: {}, idempotent: true, options });
  }

  /** POST …/consultar-por-chave — what the authority has for one access key. */
  queryByKey(accessKey: string, options?: CallOptions): Promise<ResponseOf<`${P}/consultar-por-chave`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/consultar-por-chave`, body: { accessKey }, idempotent: true, options });
  }

  /** POST …/download-xml — the full XML of a summary. */
  downloadXml(body: BodyOf<`${P}/download-xml`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/download-xml`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/download-xml`, body, idempotent: true, options });
  }

  /** POST …/manifestar — CIENCIA, CONFIRMACAO, DESCONHECIMENTO, NAO_REALIZADA. */
  manifest(body: BodyOf<`${P}/manifestar`, 'post'>, options?: CallOptions): Promise<ResponseOf<`${P}/manifestar`, 'post'>> {
    return this.http.request({ method: 'POST', path: `${BASE}/manifestar`, body, idempotent: true, options });
  }

  /** GET …/certificado/:filialId */
  certificate(filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/certificado/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/certificado/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** PUT …/certificado/:filialId — { pfx: base64, password }. */
  uploadCertificate(body: BodyOf<`${P}/certificado/{filialId}`, 'put'>, filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/certificado/{filialId}`, 'put'>> {
    return this.http.request({ method: 'PUT', path: `${BASE}/certificado/${seg(filialOf(this.http, filialId))}`, body, options });
  }

  /** GET …/dfe/:filialId — NSU position, last answer, gaps, endpoints, certificate. */
  state(filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/dfe/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/dfe/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** GET …/dfe-schedule — the scheduled sync of every filial the token grants. */
  schedules(options?: CallOptions): Promise<ResponseOf<`${P}/dfe-schedule`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/dfe-schedule`, options });
  }

  /** GET …/dfe-schedule/:filialId */
  schedule(filialId?: string, options?: CallOptions): Promise<ResponseOf<`${P}/dfe-schedule/{filialId}`, 'get'>> {
    return this.http.request({ method: 'GET', path: `${BASE}/dfe-schedule/${seg(filialOf(this.http, filialId))}`, options });
  }

  /** GET …/dfe-log/:filialId — every exchange with the authority (envelopes: true for the XML). */
  log(query: WithFilial<QueryOf<`${P}/dfe-log/{filialId}`, 'get'>> = {} as never, options?: CallOptions): Promise<ResponseOf<`${P}/dfe-log/{filialId}`, 'get'>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/dfe-log/${seg(filialOf(this.http, filialId))}`, query: rest as QueryParams, options });
  }
}
