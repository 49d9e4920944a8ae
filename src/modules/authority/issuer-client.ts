import { Counter, Histogram } from 'prom-client';
import { invoicesConfig } from '../../core/config/invoices';
import { UpstreamError } from '../../core/errors';
import { registry } from '../../core/metrics';
import { TransportError, postWithRetries } from './soap/https-transport';
import {
  AuthorizationReply,
  AUTORIZACAO,
  buildConsSitNFe,
  buildConsStatServ,
  buildEnviNFe,
  CONSULTA_PROTOCOLO,
  INUTILIZACAO,
  OutboundService,
  readAuthorizationEnvelope,
  readAuthorizationReply,
  readSituationReply,
  readStatusReply,
  readVoidReply,
  SituationReply,
  STATUS_SERVICO,
  StatusReply,
  VoidReply,
} from './xml/outbound';
import { EnvEventoResult, readRetEnvEvento } from './xml/events';
import { buildRequestEnvelope, readSoapBody, RECEPCAO_EVENTO, soapContentType, SoapFault, SoapService } from './xml/soap';
import type { Credentials } from './xml/xmldsig';
import type { IssuerTarget } from './endpoints';

/*
 * The issuer's calls to the authority over mutual TLS. Nothing is retried blindly here: a lost answer
 * to an authorization is settled by the caller consulting the key (never by sending a new number).
 * Every call is timed into a histogram by service and counted by the cStat it got.
 */

const latency = new Histogram({
  name: 'backoffice_sefaz_call_seconds',
  help: 'Latency of calls to the tax authority by service (outbound NF-e) and outcome',
  labelNames: ['service', 'outcome'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});
const answers = new Counter({
  name: 'backoffice_sefaz_answers_total',
  help: 'Answers of the tax authority to outbound NF-e calls by service and cStat',
  labelNames: ['service', 'cStat'],
  registers: [registry],
});

/** A call that got no answer (timeout, connection lost): the outcome at the authority is unknown. */
export class NoAnswerError extends Error {
  constructor(
    readonly service: OutboundService,
    message: string,
    readonly timeout: boolean,
    /** No answer on a kept-alive connection (the authority may have closed it as the call went out). */
    readonly reusedSocket = false,
  ) {
    super(message);
  }
}

const SERVICES: Record<OutboundService, SoapService> = {
  AUTORIZACAO,
  RET_AUTORIZACAO: AUTORIZACAO,
  CONSULTA_PROTOCOLO,
  STATUS_SERVICO,
  INUTILIZACAO,
  RECEPCAO_EVENTO,
};

export class IssuerClient {
  constructor(
    private readonly target: IssuerTarget,
    private readonly credentials: Credentials,
    private readonly tpAmb: '1' | '2',
    /** A deadline of this client's own (the NFC-e's short synchronous one); default INVOICE_SEFAZ_TIMEOUT_MS. */
    private readonly timeoutMs?: number,
  ) {}

  get label(): string {
    return this.target.label;
  }

  private async call(service: OutboundService, message: string, resultElement: string, fresh = false): Promise<{ raw: string; el: ReturnType<typeof readSoapBody> }> {
    return this.read(service, await this.exchange(service, message, fresh), resultElement);
  }

  /** The call over the transport, timed; no answer → NoAnswerError (or the TLS failure). */
  private async exchange(service: OutboundService, message: string, fresh: boolean): Promise<{ status: number; body: string }> {
    const soap = SERVICES[service];
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let reply: { status: number; body: string };
    try {
      reply = await postWithRetries(
        { url: this.target.url(service), ca: this.target.ca, keyPem: this.credentials.keyPem, certPem: this.credentials.certPem, chainPems: this.credentials.chainPems, identity: this.credentials },
        { 'Content-Type': soapContentType(soap), Accept: 'application/soap+xml, text/xml' },
        buildRequestEnvelope(soap, message),
        // Only calls whose repetition is harmless are retried by the transport.
        { timeoutMs: this.timeoutMs ?? invoicesConfig.timeoutMs, retries: service === 'CONSULTA_PROTOCOLO' || service === 'STATUS_SERVICO' ? 1 : 0, retryBaseMs: 200, fresh },
      );
    } catch (err) {
      latency.observe({ service, outcome: 'no-answer' }, seconds());
      answers.inc({ service, cStat: 'none' });
      if (err instanceof TransportError) {
        if (err.failure === 'tls') throw new UpstreamError('upstream_failure', 'SEFAZ_TLS_FAILURE', `Secure connection to the authority failed: ${err.message}`);
        throw new NoAnswerError(service, err.message, err.failure === 'timeout', err.reusedSocket);
      }
      throw err;
    }
    latency.observe({ service, outcome: 'answer' }, seconds());
    return reply;
  }

  /** The reply's message element, counted by its cStat; unreadable → 502/503 problems. */
  private read(service: OutboundService, reply: { status: number; body: string }, resultElement: string): { raw: string; el: ReturnType<typeof readSoapBody> } {
    try {
      const el = readSoapBody(reply.body, resultElement);
      const cStat = /<(?:\w+:)?cStat>(\d{3})</.exec(reply.body.slice(reply.body.lastIndexOf('<infProt') > 0 ? reply.body.lastIndexOf('<infProt') : 0))?.[1] ?? 'none';
      answers.inc({ service, cStat });
      return { raw: reply.body, el };
    } catch (err) {
      answers.inc({ service, cStat: 'unreadable' });
      if (err instanceof SoapFault) throw new UpstreamError('upstream_failure', 'SEFAZ_SOAP_FAULT', `The authority answered with a SOAP Fault: ${err.message}`, { httpStatus: reply.status });
      if (reply.status === 503) throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', 'The authority is unavailable (HTTP 503)', { httpStatus: reply.status });
      throw new UpstreamError('upstream_failure', 'SEFAZ_BAD_REPLY', `The authority's reply could not be read: ${(err as Error).message}`, { httpStatus: reply.status });
    }
  }

  /** `fresh`: on a new connection (again after a kept one failed). */
  async authorize(signedNfe: string, idLote: string, fresh = false): Promise<AuthorizationReply> {
    const reply = await this.exchange('AUTORIZACAO', buildEnviNFe(signedNfe, idLote), fresh);
    // The plain shape without a DOM (outbound.ts); anything else the DOM reads, with its errors.
    const quick = readAuthorizationEnvelope(reply.body);
    if (quick) {
      const cStat = quick.protocol ? quick.protocol.cStat : quick.cStat;
      answers.inc({ service: 'AUTORIZACAO', cStat: /^\d{3}$/.test(cStat) ? cStat : 'none' });
      return quick;
    }
    const r = this.read('AUTORIZACAO', reply, 'retEnviNFe');
    return readAuthorizationReply(r.el, r.raw);
  }

  async situation(accessKey: string): Promise<SituationReply> {
    const r = await this.call('CONSULTA_PROTOCOLO', buildConsSitNFe(this.tpAmb, accessKey), 'retConsSitNFe');
    return readSituationReply(r.el, r.raw);
  }

  async status(cUF: string): Promise<StatusReply> {
    const r = await this.call('STATUS_SERVICO', buildConsStatServ(this.tpAmb, cUF), 'retConsStatServ');
    return readStatusReply(r.el);
  }

  async voidNumbers(inutNFe: string): Promise<VoidReply> {
    const r = await this.call('INUTILIZACAO', inutNFe, 'retInutNFe');
    return readVoidReply(r.el, r.raw);
  }

  async event(envEvento: string): Promise<{ lot: EnvEventoResult; raw: string }> {
    const r = await this.call('RECEPCAO_EVENTO', envEvento, 'retEnvEvento');
    return { lot: readRetEnvEvento(r.el), raw: r.raw };
  }
}
