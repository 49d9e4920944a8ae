import type { Element } from '@xmldom/xmldom';
import { UpstreamError } from '../../../core/errors';
import { buildDistDFeInt, DistQuery, DistResult, readRetDistDFeInt } from '../xml/dist-dfe';
import { XmlReadError } from '../xml/dom';
import { buildSignedEnvEvento, EnvEventoResult, EventInput, EventResult, readRetEnvEvento } from '../xml/events';
import { ufCode } from '../xml/uf-codes';
import type { Credentials } from '../xml/xmldsig';
import { buildRequestEnvelope, DIST_DFE, readSoapBody, RECEPCAO_EVENTO, soapContentType, SoapFault, SoapService } from '../xml/soap';
import { postWithRetries, PostOptions, TransportError } from './https-transport';
import { observeSefazAttempt } from '../client.metrics';

/*
 * The authority client: NFeDistribuicaoDFe and NFeRecepcaoEvento4 over SOAP 1.2 with mutual TLS.
 * It knows nothing of the database: every attempt is handed to `onExchange` (the DF-e log), and
 * failures of the authority become 502/503/504 problems carrying what it said.
 */

/** The services whose exchanges are logged per attempt (the DF-e log). */
export type DfeLogService = 'DIST_DFE' | 'RECEPCAO_EVENTO';

export interface AuthorityTarget {
  distUrl: string;
  eventUrl: string;
  /** Trusted CAs for these URLs (the simulator's); absent → system roots + SEFAZ_CA_FILE. */
  ca?: string[];
  /** The quiet period this authority asks after 137 / maxNSU / 656; absent → SEFAZ_WAIT_SECONDS. */
  waitMs?: number;
}

export interface ExchangeRecord {
  service: DfeLogService;
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
  target: AuthorityTarget;
  credentials: Credentials;
  tpAmb: '1' | '2';
  /** The interested party / recipient (the filial). */
  document: string;
  uf: string | null;
  onExchange?: (record: ExchangeRecord) => Promise<void>;
  transport?: PostOptions;
}

/** The X509Certificate inside a signed request is not logged; its fingerprint names it. */
export const redactCertificate = (xml: string, fingerprint: string) => xml.replace(/(<(?:\w+:)?X509Certificate>)[^<]*(<\/(?:\w+:)?X509Certificate>)/g, `$1[omitted sha256:${fingerprint}]$2`);

/** For the log: the message's cStat (the inner one for events: the lot's 128 only says "processed"). */
function statusOf(response: string | null, innermost: boolean): { cStat: string | null; xMotivo: string | null } {
  if (!response) return { cStat: null, xMotivo: null };
  const pick = (re: RegExp) => {
    const all = [...response.matchAll(re)];
    const m = innermost ? all[all.length - 1] : all[0];
    return m ? m[1].trim() : null;
  };
  return { cStat: pick(/<(?:\w+:)?cStat>(\d{3})</g), xMotivo: pick(/<(?:\w+:)?xMotivo>([^<]*)</g)?.slice(0, 255) ?? null };
}

/** Reads a reply envelope into its message element, or the 502 that says why it cannot. */
function readReply(service: SoapService, status: number, body: string): Element {
  try {
    return readSoapBody(body, service.resultElement);
  } catch (err) {
    if (err instanceof SoapFault) throw new UpstreamError('upstream_failure', 'SEFAZ_SOAP_FAULT', `The authority answered with a SOAP Fault: ${err.message}`, { httpStatus: status });
    if (status === 503) throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', 'The authority is unavailable (HTTP 503)', { httpStatus: status });
    if (status < 200 || status >= 300) throw new UpstreamError('upstream_failure', 'SEFAZ_HTTP_ERROR', `The authority answered HTTP ${status}`, { httpStatus: status });
    const reason = err instanceof XmlReadError || (err as { kind?: string }).kind ? (err as Error).message : 'unreadable reply';
    throw new UpstreamError('upstream_failure', 'SEFAZ_BAD_REPLY', `The authority's reply could not be read: ${reason}`, { httpStatus: status });
  }
}

/** The decoder of DistDFe replies (also used on recorded traffic). */
export function decodeDistReply(xml: string, status = 200): DistResult {
  return readRetDistDFeInt(readReply(DIST_DFE, status, xml));
}

/** The decoder of RecepcaoEvento replies (also used on recorded traffic). */
export function decodeEventReply(xml: string, status = 200): EnvEventoResult {
  return readRetEnvEvento(readReply(RECEPCAO_EVENTO, status, xml));
}

export class SefazClient {
  constructor(private readonly opts: ClientOptions) {}

  /** The target's own quiet period (the local simulator's), if it has one. */
  get quietPeriodMs(): number | undefined {
    return this.opts.target.waitMs;
  }

  private async call(service: SoapService, logService: DfeLogService, operation: string, url: string, message: string): Promise<{ status: number; body: string }> {
    const envelope = buildRequestEnvelope(service, message);
    const logged = redactCertificate(envelope, this.opts.credentials.fingerprint);
    try {
      return await postWithRetries(
        { url, ca: this.opts.target.ca, keyPem: this.opts.credentials.keyPem, certPem: this.opts.credentials.certPem, chainPems: this.opts.credentials.chainPems, identity: this.opts.credentials },
        { 'Content-Type': soapContentType(service), Accept: 'application/soap+xml, text/xml' },
        envelope,
        {
          ...this.opts.transport,
          onAttempt: async (a) => {
            const record: ExchangeRecord = {
              service: logService,
              operation,
              endpoint: url,
              attempt: a.attempt,
              request: logged,
              response: a.response,
              httpStatus: a.status,
              ...statusOf(a.response, logService === 'RECEPCAO_EVENTO'),
              error: a.error,
              durationMs: a.durationMs,
            };
            // Every service's every attempt: latency and cStat in /metrics, whoever calls.
            observeSefazAttempt(record);
            await this.opts.onExchange?.(record);
          },
        },
      );
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      if (err.failure === 'timeout') throw new UpstreamError('upstream_timeout', 'SEFAZ_TIMEOUT', `The authority did not answer in time: ${err.message}`);
      if (err.failure === 'tls') throw new UpstreamError('upstream_failure', 'SEFAZ_TLS_FAILURE', `Secure connection to the authority failed: ${err.message}`);
      throw new UpstreamError('upstream_unavailable', 'SEFAZ_UNAVAILABLE', `The authority could not be reached: ${err.message}`);
    }
  }

  async distDFe(query: DistQuery): Promise<DistResult> {
    const message = buildDistDFeInt({ tpAmb: this.opts.tpAmb, cUFAutor: this.opts.uf ? ufCode(this.opts.uf) : null, cnpj: this.opts.document, query });
    const reply = await this.call(DIST_DFE, 'DIST_DFE', query.kind, this.opts.target.distUrl, message);
    return decodeDistReply(reply.body, reply.status);
  }

  /** Signs and sends one manifestation event; answers the lot and the event's own result. */
  async sendEvent(input: Omit<EventInput, 'tpAmb' | 'recipientDocument'>, idLote = String(Date.now())): Promise<{ lot: EnvEventoResult; result: EventResult; evento: string }> {
    const { envEvento, evento } = buildSignedEnvEvento({ ...input, tpAmb: this.opts.tpAmb, recipientDocument: this.opts.document }, this.opts.credentials, idLote);
    const tpEvento = /<tpEvento>(\d{6})</.exec(evento)?.[1] ?? 'event';
    const reply = await this.call(RECEPCAO_EVENTO, 'RECEPCAO_EVENTO', tpEvento, this.opts.target.eventUrl, envEvento);
    const lot = decodeEventReply(reply.body, reply.status);
    const result = lot.events.find((e) => e.accessKey === input.accessKey) ?? lot.events[0];
    if (!result) {
      // Lot refused as a whole (e.g. 225 schema failure, 108/109 service stopped): its cStat is the answer.
      return {
        lot,
        result: { cStat: lot.cStat, xMotivo: lot.xMotivo, accessKey: input.accessKey, tpEvento, xEvento: null, sequence: null, registeredAt: null, protocol: null, recipientDocument: null },
        evento,
      };
    }
    return { lot, result, evento };
  }
}
