import { invoicesConfig } from '../../core/config/invoices';
import { assertNoOpenTransaction } from '../../core/db/transaction';
import { UpstreamError } from '../../core/errors';
import { observeSefazAttempt } from './client.metrics';
import type { IssuerTarget } from './endpoints';
import { postWithRetries, PostOptions, TransportError } from './soap/https-transport';
import { buildDistDFeInt, DistQuery, DistResult } from './xml/dist-dfe';
import { buildSignedEnvEvento, EnvEventoResult, EVENT_TYPES, EventInput, EventResult } from './xml/events';
import {
  AuthorizationReply,
  AUTORIZACAO,
  buildConsSitNFe,
  buildConsStatServ,
  buildEnviNFe,
  CONSULTA_PROTOCOLO,
  INUTILIZACAO,
  OutboundService,
  SituationReply,
  STATUS_SERVICO,
  StatusReply,
  VoidReply,
} from './xml/outbound';
import { answerStatus, authorizationOf, distributionOf, eventLotOf, situationOf, statusOf, voidingOf } from './xml/answers';
import { firstOf, parseReply, readReply, Reply } from './xml/reply';
import { buildRequestEnvelope, DIST_DFE, RECEPCAO_EVENTO, soapContentType, SoapFault, SoapService } from './xml/soap';
import { ufCode } from './xml/uf-codes';
import type { Credentials } from './xml/xmldsig';

/*
 * The one client of the tax authority, over SOAP 1.2 with mutual TLS: the issuer's services of its
 * authorizer (authorization, consultation, status, voiding, the issuer's events) and the national
 * environment's (distribution, manifestation). It knows nothing of the database, and refuses to run
 * while a transaction is open (SPEC §12.2): the call's outcome is recorded in a transaction of its own.
 * Every attempt is timed and counted by its cStat (client.metrics.ts) and handed to `onExchange`.
 * A call without an answer throws NoAnswerError: its outcome at the authority is unknown (an
 * authorization may have been granted), which the caller settles by consulting — never by retrying
 * blindly. Only calls whose repetition is harmless are retried by the transport.
 */

/** The national environment's services (DistDFe, the recipient's events). */
export interface AuthorityTarget {
  distUrl: string;
  eventUrl: string;
  /** Trusted CAs for these URLs (the simulator's); absent → system roots + SEFAZ_CA_FILE. */
  ca?: string[];
  /** The quiet period this authority asks after 137 / maxNSU / 656; absent → SEFAZ_WAIT_SECONDS. */
  waitMs?: number;
}

export type AuthorityService = OutboundService | 'DIST_DFE';
/** The services whose exchanges are logged per attempt (the DF-e log). */
export type DfeLogService = 'DIST_DFE' | 'RECEPCAO_EVENTO';

export interface ExchangeRecord<S extends AuthorityService = DfeLogService> {
  service: S;
  operation: string;
  endpoint: string;
  attempt: number;
  /** The envelope sent, with the signer's certificate replaced by its fingerprint. */
  request: string;
  response: string | null;
  httpStatus: number | null;
  cStat: string | null;
  xMotivo: string | null;
  error: string | null;
  durationMs: number;
}

export interface ClientOptions {
  credentials: Credentials;
  tpAmb: '1' | '2';
  /** The filial's authorizer (or its contingency): emission, consultation, status, voiding, issuer events. */
  issuer?: IssuerTarget;
  /** The national environment: distribution and manifestation. */
  national?: AuthorityTarget;
  /** The interested party / recipient of the national services (the filial's CNPJ). */
  document?: string;
  uf?: string | null;
  /** A deadline of the issuer's calls (the NFC-e's short synchronous one); default INVOICE_SEFAZ_TIMEOUT_MS. */
  timeoutMs?: number;
  onExchange?: (record: ExchangeRecord) => Promise<void>;
  /** Transport options of the national services (tests: short timeouts); default the SEFAZ_* configuration. */
  transport?: PostOptions;
}

/** A call that got no answer (timeout, connection lost): the outcome at the authority is unknown. */
export class NoAnswerError extends Error {
  constructor(
    readonly service: AuthorityService,
    message: string,
    readonly timeout: boolean,
    /** No answer on a kept-alive connection (the authority may have closed it as the call went out). */
    readonly reusedSocket = false,
  ) {
    super(message);
  }

  /** The problem for a caller that asks again later (a query, a manifestation its 573 settles): 504 or 503. */
  problem(): UpstreamError {
    return this.timeout
      ? new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer in time: ${this.message}`)
      : new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority could not be reached: ${this.message}`);
  }
}

/** The X509Certificate inside a signed request is not logged; its fingerprint names it. */
export const redactCertificate = (xml: string, fingerprint: string) =>
  xml.replace(/(<(?:\w+:)?X509Certificate>)[^<]*(<\/(?:\w+:)?X509Certificate>)/g, `$1[omitted sha256:${fingerprint}]$2`);

/** A reply envelope read into its message, or the 502/503 that says why it cannot. */
function readOrProblem(body: string, status: number, service: SoapService): Reply {
  try {
    return readReply(body, service.resultElement);
  } catch (err) {
    if (err instanceof SoapFault)
      throw new UpstreamError('upstream_failure', 'SEFAZ_SOAP_FAULT', `The authority answered with a SOAP Fault: ${err.message}`, {
        httpStatus: status,
      });
    if (status === 503)
      throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', 'The authority is unavailable (HTTP 503)', {
        httpStatus: status,
      });
    const http = status < 200 || status >= 300 ? ` (HTTP ${status})` : '';
    throw new UpstreamError(
      'upstream_failure',
      'SEFAZ_BAD_REPLY',
      `The authority's reply could not be read${http}: ${(err as Error).message}`,
      { httpStatus: status },
    );
  }
}

/** The decoder of DistDFe replies (also used on recorded traffic). */
export const decodeDistReply = (xml: string, status = 200): DistResult => distributionOf(readOrProblem(xml, status, DIST_DFE));

/** The decoder of RecepcaoEvento replies (also used on recorded traffic). */
export const decodeEventReply = (xml: string, status = 200): EnvEventoResult => eventLotOf(readOrProblem(xml, status, RECEPCAO_EVENTO));

/** For the log and the metrics: the answer's own cStat, or none when the reply cannot be read. */
function statusOfAttempt(response: string | null, service: SoapService): { cStat: string | null; xMotivo: string | null } {
  if (!response) return { cStat: null, xMotivo: null };
  try {
    const root = parseReply(response);
    return answerStatus(firstOf(root, service.resultElement) ?? root);
  } catch {
    return { cStat: null, xMotivo: null };
  }
}

const SERVICES: Record<AuthorityService, SoapService> = {
  AUTORIZACAO,
  RET_AUTORIZACAO: AUTORIZACAO,
  CONSULTA_PROTOCOLO,
  STATUS_SERVICO,
  INUTILIZACAO,
  RECEPCAO_EVENTO,
  DIST_DFE,
};

export class AuthorityClient {
  constructor(private readonly opts: ClientOptions) {}

  /** The national target's own quiet period (the local simulator's), if it has one. */
  get quietPeriodMs(): number | undefined {
    return this.opts.national?.waitMs;
  }

  private issuer(): IssuerTarget {
    if (!this.opts.issuer) throw new Error("This authority client has no issuer's target");
    return this.opts.issuer;
  }

  private national(): AuthorityTarget & { document: string } {
    if (!this.opts.national || !this.opts.document) throw new Error('This authority client has no national target');
    return { ...this.opts.national, document: this.opts.document };
  }

  /**
   * The one path of every call: the envelope over the transport, each attempt observed, then the reply
   * read into its message. No answer → NoAnswerError; a failed TLS handshake → 502.
   */
  private async call<S extends AuthorityService>(
    service: S,
    operation: string,
    url: string,
    ca: string[] | undefined,
    message: string,
    transport: PostOptions,
    log?: (record: ExchangeRecord<S>) => Promise<void>,
  ): Promise<Reply> {
    assertNoOpenTransaction('A call to the tax authority');
    const soap = SERVICES[service];
    const envelope = buildRequestEnvelope(soap, message);
    const logged = log ? redactCertificate(envelope, this.opts.credentials.fingerprint) : '';
    const c = this.opts.credentials;
    let reply: { status: number; body: string };
    try {
      reply = await postWithRetries(
        { url, ca, keyPem: c.keyPem, certPem: c.certPem, chainPems: c.chainPems, identity: c },
        { 'Content-Type': soapContentType(soap), Accept: 'application/soap+xml, text/xml' },
        envelope,
        {
          ...transport,
          onAttempt: async (a) => {
            const record: ExchangeRecord<S> = {
              service,
              operation,
              endpoint: url,
              attempt: a.attempt,
              request: logged,
              response: a.response,
              httpStatus: a.status,
              ...statusOfAttempt(a.response, soap),
              error: a.error,
              durationMs: a.durationMs,
            };
            observeSefazAttempt(record);
            await log?.(record);
          },
        },
      );
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      if (err.failure === 'tls')
        throw new UpstreamError('upstream_failure', 'SEFAZ_TLS_FAILURE', `Secure connection to the authority failed: ${err.message}`);
      throw new NoAnswerError(service, err.message, err.failure === 'timeout', err.reusedSocket);
    }
    return readOrProblem(reply.body, reply.status, soap);
  }

  /** An issuer's service: its authorizer's URL, the issuer's deadline, retried only when harmless. */
  private issuerCall(service: OutboundService, operation: string, message: string, fresh = false): Promise<Reply> {
    const target = this.issuer();
    const retries = service === 'CONSULTA_PROTOCOLO' || service === 'STATUS_SERVICO' ? 1 : 0;
    return this.call(service, operation, target.url(service), target.ca, message, {
      timeoutMs: this.opts.timeoutMs ?? invoicesConfig.timeoutMs,
      retries,
      retryBaseMs: 200,
      fresh,
    });
  }

  /** A national service: asked again later when unanswered, so no answer is the 504/503 problem at once. */
  private async nationalCall(service: DfeLogService, operation: string, url: string, message: string): Promise<Reply> {
    try {
      return await this.call(service, operation, url, this.opts.national?.ca, message, this.opts.transport ?? {}, this.opts.onExchange);
    } catch (err) {
      throw err instanceof NoAnswerError ? err.problem() : err;
    }
  }

  /** NFeAutorizacao4, synchronous. `fresh`: on a new connection (again after a kept one failed). */
  async authorize(signedNfe: string, idLote: string, fresh = false): Promise<AuthorizationReply> {
    return authorizationOf(await this.issuerCall('AUTORIZACAO', 'enviNFe', buildEnviNFe(signedNfe, idLote), fresh));
  }

  async situation(accessKey: string): Promise<SituationReply> {
    return situationOf(await this.issuerCall('CONSULTA_PROTOCOLO', 'consSitNFe', buildConsSitNFe(this.opts.tpAmb, accessKey)));
  }

  async status(cUF: string): Promise<StatusReply> {
    return statusOf(await this.issuerCall('STATUS_SERVICO', 'consStatServ', buildConsStatServ(this.opts.tpAmb, cUF)));
  }

  async voidNumbers(inutNFe: string): Promise<VoidReply> {
    return voidingOf(await this.issuerCall('INUTILIZACAO', 'inutNFe', inutNFe));
  }

  /** An issuer's event lot (signed by the caller); each retEvento's exact text comes with it. */
  async issuerEvent(envEvento: string, tpEvento: string): Promise<EnvEventoResult & { retEventos: string[] }> {
    return eventLotOf(await this.issuerCall('RECEPCAO_EVENTO', tpEvento, envEvento));
  }

  async distDFe(query: DistQuery): Promise<DistResult> {
    const n = this.national();
    const message = buildDistDFeInt({
      tpAmb: this.opts.tpAmb,
      cUFAutor: this.opts.uf ? ufCode(this.opts.uf) : null,
      cnpj: n.document,
      query,
    });
    return distributionOf(await this.nationalCall('DIST_DFE', query.kind, n.distUrl, message));
  }

  /** Signs and sends one manifestation event; answers the lot and the event's own result. */
  async manifest(
    input: Omit<EventInput, 'tpAmb' | 'recipientDocument'>,
    idLote = String(Date.now()),
  ): Promise<{ lot: EnvEventoResult; result: EventResult; evento: string }> {
    assertNoOpenTransaction('A call to the tax authority');
    const n = this.national();
    const { envEvento, evento } = buildSignedEnvEvento(
      { ...input, tpAmb: this.opts.tpAmb, recipientDocument: n.document },
      this.opts.credentials,
      idLote,
    );
    const { tpEvento } = EVENT_TYPES[input.event];
    const { retEventos: _, ...lot } = eventLotOf(await this.nationalCall('RECEPCAO_EVENTO', tpEvento, n.eventUrl, envEvento));
    const result = lot.events.find((e) => e.accessKey === input.accessKey) ?? lot.events[0];
    if (!result) {
      // Lot refused as a whole (e.g. 225 schema failure, 108/109 service stopped): its cStat is the answer.
      return {
        lot,
        result: {
          cStat: lot.cStat,
          xMotivo: lot.xMotivo,
          accessKey: input.accessKey,
          tpEvento,
          xEvento: null,
          sequence: null,
          registeredAt: null,
          protocol: null,
          recipientDocument: null,
        },
        evento,
      };
    }
    return { lot, result, evento };
  }
}
