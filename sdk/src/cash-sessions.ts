import { CallOptions, filialOf, HttpClient, seg } from './http';
import type { BodyOf, QueryOf, ResponseOf } from './typed';

const BASE = '/cash-sessions';

export type CashSession = ResponseOf<'/api/cash-sessions/{id}', 'get'>;
export type CashSessionOpenRequest = BodyOf<'/api/cash-sessions', 'post'>;
export type CashMovementRequest = BodyOf<'/api/cash-sessions/{id}/movements', 'post'>;
export type CashMovementResult = ResponseOf<'/api/cash-sessions/{id}/movements', 'post'>;
export type CashCloseRequest = BodyOf<'/api/cash-sessions/{id}/close', 'post'>;
export type CashSessionReport = ResponseOf<'/api/cash-sessions/{id}/report/z', 'get'>;
export type CashSessionList = ResponseOf<'/api/cash-sessions/list/{filialId}', 'get'>;
export type CashSessionListQuery = QueryOf<'/api/cash-sessions/list/{filialId}', 'get'>;
export type TefAuthorization = ResponseOf<'/api/cash-sessions/{id}/tef-authorizations', 'post'>;

/** `/api/cash-sessions`: a terminal's cash session — opening, sangria/suprimento, blind close, approval, reopening, X/Z reports, TEF. */
export class CashSessions {
  constructor(private readonly http: HttpClient) {}

  /** POST /cash-sessions (Idempotency-Key sent) — the counted float; one open session per terminal. */
  open(body: CashSessionOpenRequest, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'POST', path: BASE, body, idempotent: true, options });
  }

  /** GET /cash-sessions/:id */
  get(id: string, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}`, options });
  }

  /** GET /cash-sessions/current/:filialId/:terminalId — the terminal's open session (the client's filial unless given). */
  current(terminalId: string, filialId?: string, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'GET', path: `${BASE}/current/${seg(filialOf(this.http, filialId))}/${seg(terminalId)}`, options });
  }

  /** GET /cash-sessions/list/:filialId */
  list(query: CashSessionListQuery & { filialId?: string } = {}, options?: CallOptions): Promise<CashSessionList> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/list/${seg(filialOf(this.http, filialId))}`, query: { ...rest }, options });
  }

  /** POST /cash-sessions/:id/movements (Idempotency-Key sent) — a sangria or a suprimento. */
  move(id: string, body: CashMovementRequest, options?: CallOptions): Promise<CashMovementResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/movements`, body, idempotent: true, options });
  }

  /** POST /cash-sessions/:id/tef-authorizations (Idempotency-Key sent) — a card through the TEF; the answer's `card` goes into the sale's payment. */
  authorizeCard(id: string, body: BodyOf<'/api/cash-sessions/{id}/tef-authorizations', 'post'>, options?: CallOptions): Promise<TefAuthorization> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/tef-authorizations`, body, idempotent: true, options });
  }

  /** POST /cash-sessions/:id/close (Idempotency-Key sent) — the blind count per method. */
  close(id: string, body: CashCloseRequest, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/close`, body, idempotent: true, options });
  }

  /** POST /cash-sessions/:id/approve (Idempotency-Key sent) — a supervisor's approval of a close above the limit. */
  approve(id: string, body: BodyOf<'/api/cash-sessions/{id}/approve', 'post'> = {}, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/approve`, body, idempotent: true, options });
  }

  /** POST /cash-sessions/:id/reopen (Idempotency-Key sent) — a closed day reopened with a reason. */
  reopen(id: string, reason: string, options?: CallOptions): Promise<CashSession> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/reopen`, body: { reason }, idempotent: true, options });
  }

  /** GET /cash-sessions/:id/report/x — the partial reading (supervisor). */
  reportX(id: string, options?: CallOptions): Promise<CashSessionReport> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}/report/x`, options });
  }

  /** GET /cash-sessions/:id/report/z — the close of a counted session. */
  reportZ(id: string, options?: CallOptions): Promise<CashSessionReport> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}/report/z`, options });
  }
}
