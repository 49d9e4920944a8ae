import crypto from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/*
 * A local Pix PSP for development and tests (not loaded by production code; see
 * docs/decisions/simulator-outside-production.md): an HTTP server speaking the Central Bank's API Pix
 * v2 as a PSP serves it — OAuth2 client credentials, `cob`, `cobv`, `pix`, `devolucao`, `webhook` —
 * with errors as the API's problem documents, and an admin API (bearer admin token) that plays the
 * payer: pay a charge or a static key, and deliver the webhook callbacks delayed, repeated, held and
 * released out of order. State lives in memory.
 *
 * Admin routes:
 *   POST /admin/pay        { txid?, chave?, valor?, componentesValor?, endToEndId?, horario?, deliver? }
 *                          deliver: { delayMs?, repeat?, hold? } (repeat: total callbacks; hold: kept until released)
 *   POST /admin/webhooks/release   { order?: 'fifo' | 'reverse' }
 *   GET  /admin/webhooks           the deliveries made (url, status, body)
 *   PUT  /admin/webhook-headers/:chave   { headers } added to each callback of that key (what the
 *                          receiver's mTLS-terminating proxy adds after checking the PSP's certificate)
 *   PUT  /admin/refund-outcome     { status: 'DEVOLVIDO' | 'NAO_REALIZADO', delayMs? } for later refunds
 */

export interface PspSimulatorOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  adminToken?: string;
  /** The receiving PSP's ISPB (8 digits) in the endToEndIds it makes. */
  ispb?: string;
  tokenTtlSeconds?: number;
}

interface Charge {
  kind: 'cob' | 'cobv';
  txid: string;
  revisao: number;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  calendario: Record<string, unknown>;
  loc: { id: number; location: string; tipoCob: 'cob' | 'cobv' };
  location: string;
  devedor?: unknown;
  valor: Record<string, unknown> & { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pix: string[];
}

interface Refund {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
  descricao?: string;
}

interface Pix {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  componentesValor?: Record<string, { valor: string }>;
  devolucoes: Refund[];
}

interface Callback {
  url: string;
  chave: string;
  body: { pix: unknown[] };
}

export interface Delivery {
  url: string;
  status: number | null;
  body: { pix: unknown[] };
  at: string;
}

export interface DeliverOptions {
  delayMs?: number;
  repeat?: number;
  hold?: boolean;
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const cents = (v: string) => Math.round(Number(v) * 100);

function problem(res: ServerResponse, status: number, title: string, detail: string, violacoes?: { razao: string; propriedade: string }[]) {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(
    JSON.stringify({
      type: `https://pix.bcb.gov.br/api/v2/error/${title.replace(/\W+/g, '')}`,
      title,
      status,
      detail,
      ...(violacoes ? { violacoes } : {}),
    }),
  );
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export class PspSimulator {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly adminToken: string;
  url = '';
  private readonly ispb: string;
  private readonly ttl: number;
  private server: http.Server | null = null;
  private tokens = new Map<string, number>();
  private charges = new Map<string, Charge>();
  private pixes = new Map<string, Pix>();
  private webhooks = new Map<string, string>();
  private webhookHeaders = new Map<string, Record<string, string>>();
  private held: Callback[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private locSeq = 0;
  private refundOutcome: { status: 'DEVOLVIDO' | 'NAO_REALIZADO'; delayMs: number } = { status: 'DEVOLVIDO', delayMs: 0 };
  readonly deliveries: Delivery[] = [];
  /** Calls received by the API (method and path), for tests. */
  readonly calls: string[] = [];

  constructor(private readonly options: PspSimulatorOptions = {}) {
    this.clientId = options.clientId ?? 'simulator-client';
    this.clientSecret = options.clientSecret ?? crypto.randomBytes(12).toString('hex');
    this.adminToken = options.adminToken ?? crypto.randomBytes(12).toString('hex');
    this.ispb = options.ispb ?? '99999008';
    this.ttl = options.tokenTtlSeconds ?? 3600;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => problem(res, 500, 'ErroInternoDoServidor', err.message));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The API's base URL (what a PSP connection's `baseUrl` is). */
  get apiUrl(): string {
    return `${this.url}/api/v2`;
  }

  /** The webhook URL registered for a key (PUT /webhook/{chave}). */
  webhookOf(chave: string): string | undefined {
    return this.webhooks.get(chave);
  }

  /** Headers added to each callback of a key (what the receiver's mTLS-terminating proxy adds). */
  setWebhookHeaders(chave: string, headers: Record<string, string>): void {
    this.webhookHeaders.set(chave, headers);
  }

  /** What later refunds end as (and after how long). */
  setRefundOutcome(status: 'DEVOLVIDO' | 'NAO_REALIZADO', delayMs = 0): void {
    this.refundOutcome = { status, delayMs };
  }

  /** The last request body of a charge as the PSP stored it (tests). */
  chargeOf(txid: string): Record<string, unknown> | undefined {
    const c = this.charges.get(txid);
    return c ? (this.chargeView(c) as Record<string, unknown>) : undefined;
  }

  /** Revokes every token (the next call gets 401 and must take a new one). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  private stamp(): string {
    const d = new Date();
    return d.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  }

  private newE2e(prefix: 'E' | 'D'): string {
    return prefix + this.ispb + this.stamp() + crypto.randomBytes(8).toString('hex').slice(0, 11);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const raw = method === 'GET' ? '' : await readBody(req);
    let body: Record<string, unknown> = {};
    if (raw && !/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return problem(res, 400, 'RequisicaoInvalida', 'O corpo não é um JSON válido');
      }
    }
    if (path === '/oauth/token' && method === 'POST') return this.oauth(req, raw, res);
    if (path.startsWith('/admin/')) {
      if (req.headers.authorization !== `Bearer ${this.adminToken}`) return problem(res, 401, 'NaoAutorizado', 'admin token');
      return this.admin(method, path, body, res);
    }
    if (!path.startsWith('/api/v2/')) return problem(res, 404, 'NaoEncontrado', path);
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth || (this.tokens.get(auth[1]) ?? 0) < Date.now())
      return problem(res, 401, 'AcessoNegado', 'token ausente, inválido ou expirado');
    const p = path.slice('/api/v2'.length);
    this.calls.push(`${method} ${p}`);
    let m: RegExpExecArray | null;
    if ((m = /^\/(cob|cobv)\/([^/]+)$/.exec(p))) {
      const kind = m[1] as 'cob' | 'cobv';
      const txid = decodeURIComponent(m[2]);
      if (method === 'PUT') return this.createCharge(kind, txid, body, res);
      if (method === 'GET') {
        const c = this.charges.get(txid);
        if (!c || c.kind !== kind) return problem(res, 404, 'CobrancaNaoEncontrada', `txid ${txid}`);
        return json(res, 200, this.chargeView(c));
      }
    }
    if (p === '/pix' && method === 'GET') return this.listPix(url, res);
    if ((m = /^\/pix\/([^/]+)$/.exec(p)) && method === 'GET') {
      const pix = this.pixes.get(decodeURIComponent(m[1]));
      return pix ? json(res, 200, this.pixView(pix)) : problem(res, 404, 'PixNaoEncontrado', m[1]);
    }
    if ((m = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(p))) {
      const pix = this.pixes.get(decodeURIComponent(m[1]));
      if (!pix) return problem(res, 404, 'PixNaoEncontrado', m[1]);
      const id = decodeURIComponent(m[2]);
      if (method === 'PUT') return this.refund(pix, id, body, res);
      const r = pix.devolucoes.find((d) => d.id === id);
      return r ? json(res, 200, r) : problem(res, 404, 'DevolucaoNaoEncontrada', id);
    }
    if ((m = /^\/webhook\/([^/]+)$/.exec(p))) {
      const chave = decodeURIComponent(m[1]);
      if (method === 'PUT') {
        const webhookUrl = String(body.webhookUrl ?? '');
        if (!/^https?:\/\//.test(webhookUrl))
          return problem(res, 400, 'WebhookOperacaoInvalida', 'webhookUrl', [{ razao: 'URL inválida', propriedade: 'webhookUrl' }]);
        this.webhooks.set(chave, webhookUrl);
        return json(res, 200, undefined);
      }
      if (method === 'GET') {
        const w = this.webhooks.get(chave);
        return w
          ? json(res, 200, { webhookUrl: w, chave, criacao: new Date().toISOString() })
          : problem(res, 404, 'WebhookNaoEncontrado', chave);
      }
      if (method === 'DELETE') {
        this.webhooks.delete(chave);
        return json(res, 204, undefined);
      }
    }
    return problem(res, 404, 'NaoEncontrado', `${method} ${p}`);
  }

  private oauth(req: IncomingMessage, raw: string, res: ServerResponse) {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':') : [];
    if (id !== this.clientId || secret !== this.clientSecret || !/grant_type=client_credentials/.test(raw)) {
      return json(res, 401, { error: 'invalid_client' });
    }
    const token = crypto.randomBytes(16).toString('hex');
    this.tokens.set(token, Date.now() + this.ttl * 1000);
    return json(res, 200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.ttl,
      scope: 'cob.write cob.read cobv.write cobv.read pix.write pix.read webhook.write webhook.read',
    });
  }

  private createCharge(kind: 'cob' | 'cobv', txid: string, body: Record<string, unknown>, res: ServerResponse) {
    if (!TXID.test(txid))
      return problem(res, 400, 'CobOperacaoInvalida', 'txid inválido', [
        { razao: 'O campo txid não respeita o schema (26 a 35 caracteres [a-zA-Z0-9]).', propriedade: 'txid' },
      ]);
    if (this.charges.has(txid))
      return problem(res, 400, 'CobOperacaoInvalida', 'txid já utilizado', [
        { razao: 'Já existe uma cobrança com o txid informado.', propriedade: 'txid' },
      ]);
    const valor = body.valor as { original?: string } | undefined;
    if (!valor?.original || !/^\d{1,10}\.\d{2}$/.test(valor.original) || cents(valor.original) <= 0) {
      return problem(res, 400, 'CobOperacaoInvalida', 'valor.original', [
        { razao: 'O campo valor.original não respeita o schema.', propriedade: 'valor.original' },
      ]);
    }
    if (typeof body.chave !== 'string' || !body.chave)
      return problem(res, 400, 'CobOperacaoInvalida', 'chave', [{ razao: 'O campo chave é obrigatório.', propriedade: 'chave' }]);
    const calendario = (body.calendario ?? {}) as Record<string, unknown>;
    if (kind === 'cobv' && !/^\d{4}-\d{2}-\d{2}$/.test(String(calendario.dataDeVencimento ?? ''))) {
      return problem(res, 400, 'CobVOperacaoInvalida', 'calendario.dataDeVencimento', [
        { razao: 'O campo calendario.dataDeVencimento é obrigatório.', propriedade: 'calendario.dataDeVencimento' },
      ]);
    }
    const id = ++this.locSeq;
    const location = `${this.url.replace(/^http:\/\//, '')}/qr/v2/${kind}/${crypto.randomBytes(16).toString('hex')}`;
    const c: Charge = {
      kind,
      txid,
      revisao: 0,
      status: 'ATIVA',
      calendario: {
        criacao: new Date().toISOString(),
        ...(kind === 'cob'
          ? { expiracao: calendario.expiracao ?? 86400 }
          : { dataDeVencimento: calendario.dataDeVencimento, validadeAposVencimento: calendario.validadeAposVencimento ?? 30 }),
      },
      loc: { id, location, tipoCob: kind },
      location,
      devedor: body.devedor,
      valor: body.valor as Charge['valor'],
      chave: body.chave,
      solicitacaoPagador: body.solicitacaoPagador as string | undefined,
      pix: [],
    };
    this.charges.set(txid, c);
    return json(res, 201, this.chargeView(c));
  }

  private chargeView(c: Charge) {
    const { kind: _kind, pix, ...rest } = c;
    return { ...rest, ...(pix.length ? { pix: pix.map((e) => this.pixView(this.pixes.get(e)!)) } : {}) };
  }

  private pixView(p: Pix) {
    const { devolucoes, ...rest } = p;
    return { ...rest, ...(devolucoes.length ? { devolucoes } : {}) };
  }

  private listPix(url: URL, res: ServerResponse) {
    const inicio = Date.parse(url.searchParams.get('inicio') ?? '');
    const fim = Date.parse(url.searchParams.get('fim') ?? '');
    if (Number.isNaN(inicio) || Number.isNaN(fim))
      return problem(res, 400, 'ConsultaPixInvalida', 'inicio e fim são obrigatórios', [{ razao: 'inicio/fim', propriedade: 'inicio' }]);
    const txid = url.searchParams.get('txid');
    const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
    const size = Math.min(1000, Number(url.searchParams.get('paginacao.itensPorPagina') ?? 100));
    const all = [...this.pixes.values()].filter(
      (p) => Date.parse(p.horario) >= inicio && Date.parse(p.horario) <= fim && (!txid || p.txid === txid),
    );
    const pages = Math.max(1, Math.ceil(all.length / size));
    return json(res, 200, {
      parametros: {
        inicio: new Date(inicio).toISOString(),
        fim: new Date(fim).toISOString(),
        paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: pages, quantidadeTotalDeItens: all.length },
      },
      pix: all.slice(page * size, (page + 1) * size).map((p) => this.pixView(p)),
    });
  }

  private refund(pix: Pix, id: string, body: Record<string, unknown>, res: ServerResponse) {
    const valor = String(body.valor ?? '');
    if (!/^\d{1,10}\.\d{2}$/.test(valor) || cents(valor) <= 0)
      return problem(res, 400, 'DevolucaoOperacaoInvalida', 'valor', [
        { razao: 'O campo valor não respeita o schema.', propriedade: 'valor' },
      ]);
    const existing = pix.devolucoes.find((d) => d.id === id);
    // The same id again: the same refund (PUT is idempotent by id).
    if (existing) return json(res, 201, existing);
    const refunded = pix.devolucoes.filter((d) => d.status !== 'NAO_REALIZADO').reduce((s, d) => s + cents(d.valor), 0);
    if (refunded + cents(valor) > cents(pix.valor)) {
      return problem(res, 400, 'DevolucaoOperacaoInvalida', 'valor acima do disponível', [
        { razao: 'O valor da devolução excede o valor do Pix menos as devoluções já feitas.', propriedade: 'valor' },
      ]);
    }
    const r: Refund = {
      id,
      rtrId: this.newE2e('D'),
      valor,
      horario: { solicitacao: new Date().toISOString() },
      status: 'EM_PROCESSAMENTO',
      descricao: body.descricao as string | undefined,
    };
    pix.devolucoes.push(r);
    const settle = () => {
      r.status = this.refundOutcome.status;
      if (r.status === 'DEVOLVIDO') r.horario.liquidacao = new Date().toISOString();
      else r.motivo = 'Devolução recusada pelo PSP do pagador';
      this.enqueue(pix, {});
    };
    if (this.refundOutcome.delayMs > 0) this.later(settle, this.refundOutcome.delayMs);
    else settle();
    return json(res, 201, { ...r, horario: { ...r.horario } });
  }

  private admin(method: string, path: string, body: Record<string, unknown>, res: ServerResponse) {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/admin/pay') {
      const out = this.pay(body as unknown as PayRequest);
      return 'error' in out ? problem(res, 422, 'PagamentoInvalido', out.error) : json(res, 201, out);
    }
    if (method === 'POST' && path === '/admin/webhooks/release') {
      return json(res, 200, { released: this.release(body.order === 'reverse' ? 'reverse' : 'fifo') });
    }
    if (method === 'GET' && path === '/admin/webhooks') return json(res, 200, { deliveries: this.deliveries });
    if (method === 'PUT' && (m = /^\/admin\/webhook-headers\/([^/]+)$/.exec(path))) {
      this.webhookHeaders.set(decodeURIComponent(m[1]), (body.headers ?? {}) as Record<string, string>);
      return json(res, 204, undefined);
    }
    if (method === 'PUT' && path === '/admin/refund-outcome') {
      this.refundOutcome = { status: body.status === 'NAO_REALIZADO' ? 'NAO_REALIZADO' : 'DEVOLVIDO', delayMs: Number(body.delayMs ?? 0) };
      return json(res, 204, undefined);
    }
    return problem(res, 404, 'NaoEncontrado', path);
  }

  /** The payer pays: a charge by its txid (its whole value unless `valor` says otherwise), or a static key. */
  pay(req: PayRequest): Pix | { error: string } {
    const charge = req.txid ? this.charges.get(req.txid) : undefined;
    const chave = charge?.chave ?? req.chave;
    if (!chave) return { error: 'txid of a charge or chave required' };
    if (charge && charge.status !== 'ATIVA' && !req.allowConcluded) return { error: `charge ${charge.txid} is ${charge.status}` };
    const valor = req.valor ?? charge?.valor.original;
    if (!valor || !/^\d{1,10}\.\d{2}$/.test(valor)) return { error: 'valor required (0.00)' };
    const pix: Pix = {
      endToEndId: req.endToEndId ?? this.newE2e('E'),
      txid: req.txid,
      valor,
      chave,
      horario: req.horario ?? new Date().toISOString(),
      infoPagador: req.infoPagador,
      // A cobv paid at its value reports it; otherwise the parts only when the test gives them (PSPs differ: bacen/pix-api #415).
      componentesValor:
        req.componentesValor ?? (charge?.kind === 'cobv' && valor === charge.valor.original ? { original: { valor } } : undefined),
      devolucoes: [],
    };
    this.pixes.set(pix.endToEndId, pix);
    if (charge) {
      charge.pix.push(pix.endToEndId);
      charge.status = 'CONCLUIDA';
    }
    this.enqueue(pix, req.deliver ?? {});
    return pix;
  }

  private enqueue(pix: Pix, deliver: DeliverOptions) {
    const url = this.webhooks.get(pix.chave);
    if (!url) return;
    const cb: Callback = { url: url.replace(/\/+$/, '') + '/pix', chave: pix.chave, body: { pix: [this.pixView(pix)] } };
    const times = Math.max(1, deliver.repeat ?? 1);
    for (let i = 0; i < times; i++) {
      if (deliver.hold) this.held.push(cb);
      else this.later(() => void this.send(cb), (deliver.delayMs ?? 0) * (i + 1));
    }
  }

  private later(fn: () => void, ms: number) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** Sends the held callbacks, in their order or reversed (out of order); answers how many. */
  release(order: 'fifo' | 'reverse' = 'fifo'): number {
    const batch = order === 'reverse' ? [...this.held].reverse() : [...this.held];
    this.held = [];
    for (const cb of batch) void this.send(cb);
    return batch.length;
  }

  /** Waits until every callback sent so far has an answer (tests). */
  async settled(): Promise<void> {
    while (this.inFlight > 0 || this.timers.size > 0) await new Promise((r) => setTimeout(r, 10));
  }

  private inFlight = 0;

  private async send(cb: Callback): Promise<void> {
    this.inFlight++;
    const payload = JSON.stringify(cb.body);
    let status: number | null = null;
    try {
      status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          cb.url,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(payload)),
              ...(this.webhookHeaders.get(cb.chave) ?? {}),
            },
            timeout: 10_000,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.end(payload);
      });
    } catch {
      status = null;
    } finally {
      this.deliveries.push({ url: cb.url, status, body: cb.body, at: new Date().toISOString() });
      this.inFlight--;
    }
  }
}

export interface PayRequest {
  txid?: string;
  chave?: string;
  valor?: string;
  componentesValor?: Record<string, { valor: string }>;
  endToEndId?: string;
  horario?: string;
  infoPagador?: string;
  /** Pay a charge already paid (a second Pix on the same txid, as the API allows). */
  allowConcluded?: boolean;
  deliver?: DeliverOptions;
}

export const startPspSimulator = (options: PspSimulatorOptions = {}) => new PspSimulator(options).start();
