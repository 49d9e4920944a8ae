import { CallOptions, HttpClient, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

/**
 * `/api/fiscal-periods`: a filial's months closed and reopened (while closed, changes dated in them are
 * refused with 409 FISCAL_PERIOD_CLOSED), and the accountant's package of a month (ZIP with manifest.json).
 */
export class FiscalPeriods {
  constructor(private readonly http: HttpClient) {}

  /** GET /fiscal-periods/:filialId — every month of the range (default the last twelve), newest first. */
  list(filialId: string, query?: QueryOf<'/api/fiscal-periods/{filialId}', 'get'>, options?: CallOptions): Promise<ResponseOf<'/api/fiscal-periods/{filialId}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/fiscal-periods/${seg(filialId)}`, query, options });
  }

  /** GET /fiscal-periods/:filialId/:period — the month and the documents still inside a legal window. */
  get(filialId: string, period: string, options?: CallOptions): Promise<ResponseOf<'/api/fiscal-periods/{filialId}/{period}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/fiscal-periods/${seg(filialId)}/${seg(period)}`, options });
  }

  /** POST /fiscal-periods/:filialId/:period/close (Idempotency-Key sent); `force: true` closes although documents are still inside a legal window. */
  close(
    filialId: string,
    period: string,
    body: BodyOf<'/api/fiscal-periods/{filialId}/{period}/close', 'post'> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<'/api/fiscal-periods/{filialId}/{period}/close', 'post'>> {
    return this.http.request({ method: 'POST', path: `/fiscal-periods/${seg(filialId)}/${seg(period)}/close`, body, idempotent: true, options });
  }

  /** POST /fiscal-periods/:filialId/:period/reopen with the reason (Idempotency-Key sent). */
  reopen(filialId: string, period: string, reason: string, options?: CallOptions): Promise<ResponseOf<'/api/fiscal-periods/{filialId}/{period}/reopen', 'post'>> {
    return this.http.request({ method: 'POST', path: `/fiscal-periods/${seg(filialId)}/${seg(period)}/reopen`, body: { reason }, idempotent: true, options });
  }

  /** GET /fiscal-periods/:filialId/:period/package.zip — the accountant's package (the same data give the same bytes). */
  package(filialId: string, period: string, options?: CallOptions): Promise<Uint8Array> {
    return this.http.request({ method: 'GET', path: `/fiscal-periods/${seg(filialId)}/${seg(period)}/package.zip`, read: 'bytes', options });
  }

  /** POST /fiscal-periods/:filialId/:period/package/send — the package mailed to the accountant (Idempotency-Key sent). */
  sendPackage(filialId: string, period: string, to: string, options?: CallOptions): Promise<ResponseOf<'/api/fiscal-periods/{filialId}/{period}/package/send', 'post'>> {
    return this.http.request({ method: 'POST', path: `/fiscal-periods/${seg(filialId)}/${seg(period)}/package/send`, body: { to }, idempotent: true, options });
  }
}
