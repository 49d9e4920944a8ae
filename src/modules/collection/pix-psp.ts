import http from 'node:http';
import https from 'node:https';
import { assertNoOpenTransaction } from '../../core/db/transaction';
import { UpstreamError } from '../../core/errors';
import { logger } from '../../core/logger';
import { pixCalls } from './pix-metrics';

/*
 * The PSP adapter: what the collection module asks of a Pix PSP, in the shapes of the Central Bank's
 * API Pix v2 (bacen/pix-api, the OpenAPI every PSP implements): immediate charges (`cob`), charges
 * with a due date (`cobv`: due date, fine, interest, discount), the Pix received (`pix`), their
 * refunds (`devolucao`) and the webhook registration. Amounts travel as strings with two decimals.
 * `HttpPixPsp` speaks it over HTTPS with OAuth2 client credentials (mTLS when a client certificate is
 * given); the local simulator (src/dev/psp-simulator) serves the same API. No call is made while a
 * database transaction is open: the service reads and writes around the calls, never across them.
 */

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface PspDebtor {
  cpf?: string;
  cnpj?: string;
  nome: string;
}

/** `PUT /cob/{txid}`. */
export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: PspDebtor;
  valor: { original: string; modalidadeAlteracao?: 0 | 1 };
  chave: string;
  solicitacaoPagador?: string;
}

/** Fine (multa) 1 = fixed amount, 2 = percent; interest (juros) 1 = amount per calendar day, 2 = percent per calendar day, 3 = percent a month (calendar days); discount 1 = fixed amount up to the dates given. */
export interface CobvValue {
  original: string;
  multa?: { modalidade: number; valorPerc: string };
  juros?: { modalidade: number; valorPerc: string };
  desconto?: { modalidade: number; descontoDataFixa?: { data: string; valorPerc: string }[]; valorPerc?: string };
}

/** `PUT /cobv/{txid}`. */
export interface CobvRequest {
  calendario: { dataDeVencimento: string; validadeAposVencimento?: number };
  devedor: PspDebtor & { logradouro?: string; cidade?: string; uf?: string; cep?: string };
  valor: CobvValue;
  chave: string;
  solicitacaoPagador?: string;
}

export interface PspRefund {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: RefundStatus;
  motivo?: string;
}

export interface PspPix {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave?: string;
  horario: string;
  infoPagador?: string;
  /** Parts of `valor` (a cobv's original, interest, fine, discount). */
  componentesValor?: {
    original?: { valor: string };
    juros?: { valor: string };
    multa?: { valor: string };
    desconto?: { valor: string };
    abatimento?: { valor: string };
  };
  devolucoes?: PspRefund[];
}

export interface PspCob {
  txid: string;
  revisao: number;
  status: CobStatus;
  calendario: { criacao: string; expiracao?: number; dataDeVencimento?: string; validadeAposVencimento?: number };
  loc?: { id: number; location: string; tipoCob: 'cob' | 'cobv' };
  location?: string;
  valor: { original: string } & Partial<CobvValue>;
  chave: string;
  pixCopiaECola?: string;
  pix?: PspPix[];
}

export interface PixPage {
  parametros: {
    inicio: string;
    fim: string;
    paginacao: { paginaAtual: number; itensPorPagina: number; quantidadeDePaginas: number; quantidadeTotalDeItens: number };
  };
  pix: PspPix[];
}

export type ChargeKind = 'cob' | 'cobv';

export interface PixPsp {
  createCharge(kind: 'cob', txid: string, body: CobRequest): Promise<PspCob>;
  createCharge(kind: 'cobv', txid: string, body: CobvRequest): Promise<PspCob>;
  /** The charge as the PSP holds it now, its `pix[]` included. */
  getCharge(kind: ChargeKind, txid: string): Promise<PspCob>;
  /** The Pix received between two instants (`GET /pix?inicio&fim`), optionally of one txid; every page. */
  listPix(query: { inicio: string; fim: string; txid?: string }): Promise<PspPix[]>;
  getPix(endToEndId: string): Promise<PspPix>;
  requestRefund(endToEndId: string, id: string, body: { valor: string; descricao?: string }): Promise<PspRefund>;
  getRefund(endToEndId: string, id: string): Promise<PspRefund>;
  registerWebhook(key: string, webhookUrl: string): Promise<void>;
}

export interface PspConnection {
  /** The API's base URL (e.g. https://pix.example.com/api/v2). */
  baseUrl: string;
  /** The OAuth2 token endpoint; default `<baseUrl origin>/oauth/token`. */
  tokenUrl?: string | null;
  clientId: string;
  clientSecret: string;
  /** mTLS towards the PSP (PEM), as the BCB requires of production PSP APIs. */
  certificate?: { cert: string; key: string } | null;
  ca?: string | null;
  timeoutMs?: number;
}

/** A PSP answer that is an error (problem+json per the API Pix), or no answer. */
export class PspError extends UpstreamError {
  constructor(
    kind: 'upstream_failure' | 'upstream_unavailable' | 'upstream_timeout',
    code: string,
    message: string,
    readonly pspStatus: number | null,
  ) {
    super(kind, code, message, { pspStatus });
  }
}

interface Reply {
  status: number;
  body: string;
}

function send(url: URL, method: string, headers: Record<string, string>, body: string | null, conn: PspConnection): Promise<Reply> {
  const secure = url.protocol === 'https:';
  const lib = secure ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(body !== null ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        timeout: conn.timeoutMs ?? 15_000,
        ...(secure ? { cert: conn.certificate?.cert, key: conn.certificate?.key, ca: conn.ca ?? undefined } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('PSP timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

function problemText(body: string): string {
  try {
    const p = JSON.parse(body) as { title?: string; detail?: string; violacoes?: { razao?: string; propriedade?: string }[] };
    const v = (p.violacoes ?? []).map((x) => `${x.propriedade ?? ''} ${x.razao ?? ''}`.trim()).join('; ');
    return [p.title, p.detail, v].filter(Boolean).join(': ') || body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

export class HttpPixPsp implements PixPsp {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly conn: PspConnection) {}

  private async call<T>(
    operation: string,
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string | undefined>,
  ): Promise<T> {
    // Every call to a PSP goes out here: none while a database transaction is open (SPEC §12.2).
    assertNoOpenTransaction('A call to the Pix PSP');
    const url = new URL(this.conn.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const started = Date.now();
    let reply: Reply;
    for (let attempt = 1; ; attempt++) {
      const token = await this.accessToken();
      try {
        reply = await send(
          url,
          method,
          { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body !== undefined ? JSON.stringify(body) : null,
          this.conn,
        );
      } catch (err) {
        pixCalls.inc({ operation, outcome: 'no-answer' });
        const timeout = (err as NodeJS.ErrnoException).code === 'ETIMEDOUT';
        throw new PspError(
          timeout ? 'upstream_timeout' : 'upstream_unavailable',
          timeout ? 'PSP_TIMEOUT' : 'PSP_UNAVAILABLE',
          `The Pix PSP did not answer ${operation}: ${(err as Error).message}`,
          null,
        );
      }
      // An expired or revoked token: one fresh token, once.
      if (reply.status === 401 && attempt === 1) {
        this.token = null;
        continue;
      }
      break;
    }
    logger.debug('pix psp call', { operation, status: reply.status, ms: Date.now() - started });
    if (reply.status >= 200 && reply.status < 300) {
      pixCalls.inc({ operation, outcome: 'ok' });
      return (reply.body ? JSON.parse(reply.body) : undefined) as T;
    }
    pixCalls.inc({ operation, outcome: String(reply.status) });
    if (reply.status === 404)
      throw new PspError(
        'upstream_failure',
        'PSP_NOT_FOUND',
        `The Pix PSP does not know it (${operation}): ${problemText(reply.body)}`,
        404,
      );
    if (reply.status >= 500 || reply.status === 429)
      throw new PspError(
        'upstream_unavailable',
        'PSP_UNAVAILABLE',
        `The Pix PSP is unavailable (${operation}, ${reply.status})`,
        reply.status,
      );
    throw new PspError(
      'upstream_failure',
      'PSP_REJECTED',
      `The Pix PSP refused ${operation} (${reply.status}): ${problemText(reply.body)}`,
      reply.status,
    );
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const url = new URL(this.conn.tokenUrl || new URL(this.conn.baseUrl).origin + '/oauth/token');
    const basic = Buffer.from(`${this.conn.clientId}:${this.conn.clientSecret}`).toString('base64');
    let reply: Reply;
    try {
      reply = await send(
        url,
        'POST',
        { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials',
        this.conn,
      );
    } catch (err) {
      throw new PspError(
        'upstream_unavailable',
        'PSP_UNAVAILABLE',
        `The Pix PSP's token endpoint did not answer: ${(err as Error).message}`,
        null,
      );
    }
    if (reply.status !== 200) {
      pixCalls.inc({ operation: 'oauth-token', outcome: String(reply.status) });
      throw new PspError(
        'upstream_failure',
        'PSP_AUTH_FAILED',
        `The Pix PSP refused the client credentials (${reply.status})`,
        reply.status,
      );
    }
    const t = JSON.parse(reply.body) as { access_token: string; expires_in?: number };
    // Renewed a little before it expires, so a call never carries a token that lapses on the way.
    this.token = { value: t.access_token, expiresAt: Date.now() + Math.max(0, (t.expires_in ?? 300) - 30) * 1000 };
    return t.access_token;
  }

  createCharge(kind: 'cob', txid: string, body: CobRequest): Promise<PspCob>;
  createCharge(kind: 'cobv', txid: string, body: CobvRequest): Promise<PspCob>;
  createCharge(kind: ChargeKind, txid: string, body: CobRequest | CobvRequest): Promise<PspCob> {
    return this.call(`PUT /${kind}`, 'PUT', `/${kind}/${encodeURIComponent(txid)}`, body);
  }

  getCharge(kind: ChargeKind, txid: string): Promise<PspCob> {
    return this.call(`GET /${kind}`, 'GET', `/${kind}/${encodeURIComponent(txid)}`);
  }

  async listPix(query: { inicio: string; fim: string; txid?: string }): Promise<PspPix[]> {
    const all: PspPix[] = [];
    for (let page = 0; ; page++) {
      const res = await this.call<PixPage>('GET /pix', 'GET', '/pix', undefined, {
        inicio: query.inicio,
        fim: query.fim,
        txid: query.txid,
        'paginacao.paginaAtual': String(page),
        'paginacao.itensPorPagina': '100',
      });
      all.push(...res.pix);
      if (page + 1 >= res.parametros.paginacao.quantidadeDePaginas) return all;
    }
  }

  getPix(endToEndId: string): Promise<PspPix> {
    return this.call('GET /pix/{e2eid}', 'GET', `/pix/${encodeURIComponent(endToEndId)}`);
  }

  requestRefund(endToEndId: string, id: string, body: { valor: string; descricao?: string }): Promise<PspRefund> {
    return this.call('PUT /devolucao', 'PUT', `/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(id)}`, body);
  }

  getRefund(endToEndId: string, id: string): Promise<PspRefund> {
    return this.call('GET /devolucao', 'GET', `/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(id)}`);
  }

  async registerWebhook(key: string, webhookUrl: string): Promise<void> {
    await this.call('PUT /webhook', 'PUT', `/webhook/${encodeURIComponent(key)}`, { webhookUrl });
  }
}
