import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { nfeConfig } from '../../core/config/nfe';
import { ACCESS_KEY_PATTERN, normalizeDocument } from '../../core/br-documents';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  AUTORIZACAO,
  buildFaultEnvelope,
  buildResponseEnvelope,
  CONSULTA_PROTOCOLO,
  DIST_DFE,
  extractElementText,
  INUTILIZACAO,
  OUTBOUND_PATHS,
  OutboundService,
  readDistDFeInt,
  readSoapBody,
  RECEPCAO_EVENTO,
  RET_AUTORIZACAO,
  type SoapService,
  STATUS_SERVICO,
} from '../../modules/authority';
import { Authority } from './authority';
import { IssuerAuthority } from './issuer-authority';
import { generateNfe, GeneratedItem, SAMPLE_ITEMS } from './nfe-generator';
import { soapMessage } from './request-tree';
import { CertificateAuthority, createCertificateAuthority, issueA1, issueCertificate, KeyAndCert } from './pki';

/*
 * The local authority: an HTTPS server with client-certificate authentication speaking the two
 * services at the national environment's paths, plus an admin API (bearer token) to feed NF-e XML,
 * generate invoices for a recipient, cancel as the issuer and inspect a recipient's stream.
 * It makes its own CA, server certificate and client certificates at start (node-forge).
 */

export const DIST_PATH = '/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx';
export const EVENT_PATH = '/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx';
const MAX_BODY = 10 * 1024 * 1024;

export interface SimulatorOptions {
  host?: string;
  port?: number;
  /** Persist documents and positions here (the embedded demo); absent → memory only. */
  stateFile?: string;
  now?: () => number;
  deadlineDays?: number;
  waitMs?: number;
  /** Fixed admin token (else random). */
  adminToken?: string;
  /** Hours an authorized NF-e may be cancelled in (501 after; 24 by default). */
  cancelDeadlineHours?: number;
  /** Idle time after which a kept-alive connection is closed (node's default, 5 s, announced in the Keep-Alive header). */
  keepAliveMs?: number;
  /** The PL_010 schemas: authorizations are validated against nfe_v4.00.xsd with xmllint (225 with its message); absent → the structural check only. */
  xsdDir?: string | null;
}

export interface SimulatorEndpoints {
  url: string;
  distUrl: string;
  eventUrl: string;
  caPem: string;
  adminToken: string;
}

export interface GenerateRequest {
  recipient: string;
  recipientName?: string;
  recipientUf?: string;
  count?: number;
  tpAmb?: '1' | '2';
  issuer?: { cnpj: string; name: string; uf: string; stateRegistration?: string };
  items?: GeneratedItem[];
  installments?: number;
}

/** Fictional suppliers that issue the generated invoices (the first two are the demo tenant's). */
export const SAMPLE_ISSUERS = [
  { cnpj: '60746948000112', name: 'Distribuidora de Bebidas Paulista S.A.', uf: 'SP', stateRegistration: '123456789110' },
  { cnpj: '33000167000101', name: 'Cerealista Grao de Ouro Ltda', uf: 'PR', stateRegistration: '9012345678' },
];

const pemOfPeer = (socket: TLSSocket): string | null => {
  const raw = socket.getPeerCertificate?.()?.raw;
  if (!raw?.length) return null;
  return `-----BEGIN CERTIFICATE-----\n${raw
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
};

/**
 * The ICP-Brasil roots the deployment installed (NFE_TRUSTED_ROOTS): like the real authority, the
 * simulator takes client certificates of ICP-Brasil as well as of its own CA, so a filial's own
 * certificate works against it (issue 44).
 */
function installedRoots(): string[] {
  const source = nfeConfig.trustedRoots;
  if (!source || !fs.existsSync(source)) return [];
  const files = fs.statSync(source).isDirectory()
    ? fs
        .readdirSync(source)
        .filter((f) => /\.(pem|crt)$/i.test(f))
        .map((f) => path.join(source, f))
    : [source];
  return files.flatMap((f) => fs.readFileSync(f, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []);
}

class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new HttpError(413, 'Body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const OUTBOUND_BY_PATH = new Map(Object.entries(OUTBOUND_PATHS).map(([service, p]) => [p.toLowerCase(), service as OutboundService]));

/** The issuer's service a path names, and whether it is the contingency authority's (SVC-AN / SVC-RS). */
function outboundRoute(pathname: string): { service: OutboundService; contingency: boolean } | null {
  const m = /^(\/svc-an|\/svc-rs)?(\/ws\/.*)$/i.exec(pathname);
  const service = m ? OUTBOUND_BY_PATH.get(m[2].toLowerCase()) : undefined;
  return service ? { service, contingency: !!m![1] } : null;
}

export class AuthoritySimulator {
  readonly ca: CertificateAuthority;
  readonly authority: Authority;
  /** The issuer's services (authorization, situation, status, voiding, issuer events). */
  readonly issuer: IssuerAuthority;
  readonly adminToken: string;
  private readonly serverPair: KeyAndCert;
  private readonly issuers = new Map<string, KeyAndCert>();
  /** Sees every SOAP request exactly as received (tests check what clients put on the wire). */
  onRequest: ((path: string, body: string) => void) | null = null;
  private server: https.Server | null = null;
  /** Requests served per connection (a second one on a socket is a kept-alive reuse). */
  private readonly served = new WeakMap<object, number>();
  /** TLS connections accepted since start (tests of keep-alive), and how many resumed a session. */
  readonly connections = { opened: 0, resumed: 0 };
  private endpoints: SimulatorEndpoints | null = null;
  private invoiceNumber = Math.floor(Date.now() / 1000) % 1_000_000;

  constructor(private readonly opts: SimulatorOptions = {}) {
    this.ca = createCertificateAuthority();
    const host = opts.host ?? '127.0.0.1';
    this.serverPair = issueCertificate(this.ca, { commonName: host, hosts: [...new Set([host, '127.0.0.1', 'localhost'])] });
    this.adminToken = opts.adminToken ?? crypto.randomBytes(24).toString('hex');
    this.authority = new Authority({
      now: opts.now,
      stateFile: opts.stateFile,
      deadlineDays: opts.deadlineDays,
      waitMs: opts.waitMs,
      issuerSigner: (cnpj, name) => this.issuerCredentials(cnpj, name),
    });
    this.issuer = new IssuerAuthority({
      now: opts.now ?? Date.now,
      stateFile: opts.stateFile ? `${opts.stateFile}.issuer.json` : undefined,
      cancelDeadlineHours: opts.cancelDeadlineHours,
      xsdDir: opts.xsdDir,
    });
    // What our issuers authorize reaches their recipients' DF-e streams, as at the national environment.
    this.issuer.onAuthorized = (procXml) => void this.authority.feed(procXml);
    this.issuer.knownElsewhere = (key, tpAmb) => this.authority.situationOf(key, tpAmb);
  }

  /** A simulated issuer's signing certificate (made once per CNPJ). */
  private issuerCredentials(cnpj: string, name: string): KeyAndCert {
    let pair = this.issuers.get(cnpj);
    if (!pair) {
      pair = issueCertificate(this.ca, { commonName: name.slice(0, 50) || 'EMITENTE', cnpj });
      this.issuers.set(cnpj, pair);
    }
    return pair;
  }

  /** An A1 certificate (PFX) for a recipient CNPJ, issued by the simulator's CA. */
  issueClientCertificate(cnpj: string, name: string, password: string, validity: { notBefore?: Date; notAfter?: Date } = {}) {
    return issueA1(this.ca, cnpj, name, password, validity);
  }

  /** Invoices from simulated issuers to `recipient`, fed into its stream. */
  generate(r: GenerateRequest): { accessKey: string; total: string; nsu: string; xml: string }[] {
    const out: { accessKey: string; total: string; nsu: string; xml: string }[] = [];
    for (let i = 0; i < (r.count ?? 1); i++) {
      const issuer = r.issuer ?? SAMPLE_ISSUERS[i % SAMPLE_ISSUERS.length];
      const items = r.items ?? SAMPLE_ITEMS.filter((_v, j) => (j + i) % 2 === 0);
      const nfe = generateNfe(
        {
          issuer,
          recipient: { cnpj: r.recipient, name: r.recipientName ?? 'DESTINATARIO', uf: r.recipientUf ?? 'SP' },
          items,
          tpAmb: r.tpAmb ?? '1',
          number: ++this.invoiceNumber,
          installments: r.installments ?? 1 + (i % 3),
          signer: this.issuerCredentials(issuer.cnpj, issuer.name),
        },
        this.invoiceNumber,
      );
      const fed = this.authority.feed(nfe.xml);
      out.push({ accessKey: nfe.accessKey, total: nfe.total, nsu: fed.nsu, xml: nfe.xml });
    }
    return out;
  }

  async start(): Promise<SimulatorEndpoints> {
    if (this.endpoints) return this.endpoints;
    const server = https.createServer(
      {
        key: this.serverPair.keyPem,
        cert: this.serverPair.certPem,
        ca: [this.ca.certPem, ...installedRoots()],
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        const n = (this.served.get(req.socket) ?? 0) + 1;
        this.served.set(req.socket, n);
        if (n > 1 && this.issuer.faults.closeReusedConnection > 0) {
          this.issuer.faults.closeReusedConnection--;
          req.socket.destroy();
          return;
        }
        this.handle(req, res).catch((err) =>
          this.send(res, err instanceof HttpError ? err.status : 500, 'text/plain', (err as Error).message),
        );
      },
    );
    // Connections kept alive between requests like a production web server's (HTTP/1.1 keep-alive,
    // closed after an idle time it announces in the Keep-Alive header).
    server.keepAliveTimeout = this.opts.keepAliveMs ?? 5000;
    server.on('secureConnection', (socket: TLSSocket) => {
      this.connections.opened++;
      if (socket.isSessionReused()) this.connections.resumed++;
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    const address = server.address() as { port: number };
    const url = `https://${this.opts.host ?? '127.0.0.1'}:${address.port}`;
    this.endpoints = {
      url,
      distUrl: `${url}${DIST_PATH}`,
      eventUrl: `${url}${EVENT_PATH}`,
      caPem: this.ca.certPem,
      adminToken: this.adminToken,
    };
    return this.endpoints;
  }

  /** Closes the kept-alive connections idle now, as the server does when their keep-alive timeout ends. */
  closeIdleConnections(): void {
    this.server?.closeIdleConnections();
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.endpoints = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // What the last notes changed reaches the state files before stop() returns (they are written in the background).
    await Promise.all([this.authority.flush(), this.issuer.flush()]);
  }

  private send(res: ServerResponse, status: number, type: string, body: string): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://simulator');
    if (req.method === 'GET' && url.pathname === '/health') return this.send(res, 200, 'application/json', '{"status":"ok"}');
    if (url.pathname.startsWith('/admin/')) return this.admin(req, res, url);
    const outbound = outboundRoute(url.pathname);
    if (req.method === 'POST' && outbound) return this.outbound(req, res, outbound.service, outbound.contingency);
    if (req.method !== 'POST' || (url.pathname !== DIST_PATH && url.pathname !== EVENT_PATH)) throw new HttpError(404, 'Not found');

    const socket = req.socket as TLSSocket;
    // Like the national environment: no client certificate of a trusted chain, no service (403).
    if (!socket.authorized)
      return this.send(res, 403, 'text/plain', 'Forbidden: a client certificate issued by a trusted authority is required');
    const peer = pemOfPeer(socket);
    const body = await readBody(req);
    this.onRequest?.(url.pathname, body);
    const soap12 = 'application/soap+xml; charset=utf-8';
    try {
      if (url.pathname === DIST_PATH) {
        const message = readDistDFeInt(readSoapBody(body, 'distDFeInt'));
        return this.send(res, 200, soap12, buildResponseEnvelope(DIST_DFE, this.authority.distribute(message, peer)));
      }
      readSoapBody(body, 'envEvento');
      // Signatures are checked on envEvento exactly as sent, outside the SOAP envelope.
      const envEvento = extractElementText(body, 'envEvento')!;
      return this.send(res, 200, soap12, buildResponseEnvelope(RECEPCAO_EVENTO, this.authority.receiveEvents(envEvento, peer)));
    } catch (err) {
      return this.send(res, 500, soap12, buildFaultEnvelope(`Mensagem invalida: ${(err as Error).message}`));
    }
  }

  /** The issuer's services; a path under /svc-an or /svc-rs is the contingency authority (up when the state's is down). */
  private async outbound(req: IncomingMessage, res: ServerResponse, service: OutboundService, contingency: boolean): Promise<void> {
    const socket = req.socket as TLSSocket;
    if (!socket.authorized)
      return this.send(res, 403, 'text/plain', 'Forbidden: a client certificate issued by a trusted authority is required');
    const peer = pemOfPeer(socket);
    const body = await readBody(req);
    this.onRequest?.(req.url ?? '', body);
    const soap12 = 'application/soap+xml; charset=utf-8';
    const answer = (svc: SoapService, message: string) => this.send(res, 200, soap12, buildResponseEnvelope(svc, message));
    try {
      switch (service) {
        case 'AUTORIZACAO': {
          // The body parsed once, into the sax tree: the lot's checks read it (issuer-authority.ts).
          const lot = soapMessage(body, 'enviNFe');
          const reply = this.issuer.authorize(extractElementText(body, 'enviNFe')!, peer, contingency, lot);
          if (reply.message === null) {
            // Authorized, then the answer is lost on the way back.
            req.socket.destroy();
            return;
          }
          if (reply.delayMs > 0) await new Promise((r) => setTimeout(r, reply.delayMs));
          return answer(AUTORIZACAO, reply.message);
        }
        case 'CONSULTA_PROTOCOLO':
          return answer(CONSULTA_PROTOCOLO, this.issuer.situation(soapMessage(body, 'consSitNFe'), contingency));
        case 'STATUS_SERVICO':
          return answer(STATUS_SERVICO, this.issuer.status(soapMessage(body, 'consStatServ'), contingency));
        case 'INUTILIZACAO':
          readSoapBody(body, 'inutNFe');
          return answer(INUTILIZACAO, this.issuer.voidNumbers(extractElementText(body, 'inutNFe')!, contingency));
        case 'RECEPCAO_EVENTO':
          readSoapBody(body, 'envEvento');
          return answer(RECEPCAO_EVENTO, this.issuer.events(extractElementText(body, 'envEvento')!, contingency));
        case 'RET_AUTORIZACAO':
          // Lots are synchronous here (indSinc 1): there is never a receipt to look up.
          readSoapBody(body, 'consReciNFe');
          return answer(
            RET_AUTORIZACAO,
            `<retConsReciNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>1</tpAmb><verAplic>SIMULADOR_UF_4.00</verAplic><nRec>000000000000000</nRec><cStat>106</cStat><xMotivo>Lote nao localizado</xMotivo><cUF>35</cUF></retConsReciNFe>`,
          );
      }
    } catch (err) {
      return this.send(res, 500, soap12, buildFaultEnvelope(`Mensagem invalida: ${(err as Error).message}`));
    }
  }

  private async admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const expected = Buffer.from(this.adminToken);
    if (token.length !== this.adminToken.length || !crypto.timingSafeEqual(Buffer.from(token), expected))
      throw new HttpError(401, 'Admin token required');
    const json = (status: number, value: unknown) => this.send(res, status, 'application/json', JSON.stringify(value));
    const body = req.method === 'POST' ? await readBody(req) : '';
    const isXml = /xml/.test(req.headers['content-type'] ?? '');
    const input = (): Record<string, unknown> => {
      try {
        return body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        throw new HttpError(400, 'Body must be JSON');
      }
    };
    try {
      if (req.method === 'POST' && url.pathname === '/admin/client-certificate') {
        // An A1 of the simulator's CA for a filial (npm run simulator:attach, from another process).
        const { cnpj, name, password } = input();
        const doc = typeof cnpj === 'string' ? normalizeDocument(cnpj, 'cnpj') : null;
        if (!doc || typeof password !== 'string' || !password) throw new HttpError(400, 'cnpj (a CNPJ) and password are required');
        const a1 = this.issueClientCertificate(
          doc,
          String(name ?? 'EMPRESA')
            .toUpperCase()
            .slice(0, 50),
          password,
        );
        return json(200, { pfx: a1.pfx.toString('base64'), password });
      }
      if (req.method === 'POST' && url.pathname === '/admin/nfe') {
        const xml = isXml ? body : String(input().xml ?? '');
        return json(201, this.authority.feed(xml));
      }
      if (req.method === 'POST' && url.pathname === '/admin/generate') {
        const r = input();
        const recipient = normalizeDocument(String(r.recipient ?? ''), 'cnpj');
        if (!recipient) throw new HttpError(400, 'recipient must be a valid CNPJ (14 digits, or alphanumeric)');
        return json(
          201,
          this.generate({ ...r, recipient, count: Math.min(Number(r.count ?? 1), 500) } as GenerateRequest).map(({ xml: _xml, ...g }) => g),
        );
      }
      if (req.method === 'POST' && url.pathname === '/admin/cancel') {
        const r = input();
        return json(201, this.authority.cancelByIssuer(String(r.accessKey ?? ''), r.justification ? String(r.justification) : undefined));
      }
      if (req.method === 'POST' && url.pathname === '/admin/announce-cte') {
        const r = input();
        if (!ACCESS_KEY_PATTERN.test(String(r.cteKey ?? ''))) throw new HttpError(400, 'cteKey must be a 44-character CT-e access key');
        return json(201, this.authority.announceCte(String(r.accessKey ?? ''), String(r.cteKey)));
      }
      if (req.method === 'POST' && url.pathname === '/admin/release-wait') {
        const r = input();
        this.authority.releaseWait(String(r.cnpj ?? ''), r.tpAmb === '2' ? '2' : '1');
        return json(200, { released: true });
      }
      if (req.method === 'POST' && url.pathname === '/admin/faults') {
        // { dropAfterAuthorize?, dropBeforeAuthorize?, delayMs?, closeReusedConnection?, downForMs?, downAfterDropMs?, consultAbsentNext?, rejectNext?: { cStat, xMotivo } }
        const r = input();
        if (r.dropAfterAuthorize !== undefined) this.issuer.faults.dropAfterAuthorize = Number(r.dropAfterAuthorize);
        if (r.dropBeforeAuthorize !== undefined) this.issuer.faults.dropBeforeAuthorize = Number(r.dropBeforeAuthorize);
        if (r.delayMs !== undefined) this.issuer.faults.delayMs = Number(r.delayMs);
        if (r.closeReusedConnection !== undefined) this.issuer.faults.closeReusedConnection = Number(r.closeReusedConnection);
        if (r.downForMs !== undefined) this.issuer.downFor(Number(r.downForMs));
        if (r.downAfterDropMs !== undefined) this.issuer.faults.downAfterDropMs = Number(r.downAfterDropMs);
        if (r.consultAbsentNext !== undefined) this.issuer.faults.consultAbsentNext = Number(r.consultAbsentNext);
        const reject = r.rejectNext as { cStat?: unknown; xMotivo?: unknown } | null | undefined;
        if (reject !== undefined)
          this.issuer.faults.rejectNext = reject ? { cStat: String(reject.cStat), xMotivo: String(reject.xMotivo) } : null;
        return json(200, { ...this.issuer.faults });
      }
      if (req.method === 'GET' && url.pathname === '/admin/issued') {
        return json(
          200,
          this.issuer
            .documentsOf(url.searchParams.get('cnpj') ?? '')
            .map(({ protXml: _p, events, ...d }) => ({ ...d, events: events.map(({ procXml: _x, ...e }) => e) })),
        );
      }
      if (req.method === 'GET' && url.pathname === '/admin/status') {
        return json(200, this.authority.status(url.searchParams.get('cnpj') ?? '', url.searchParams.get('tpAmb') === '2' ? '2' : '1'));
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(422, (err as Error).message);
    }
    throw new HttpError(404, 'Not found');
  }
}
