/*
 * SOAP 1.2 as the mainstream clients speak it to the national environment: no header, the
 * service's WSDL namespace on the body's wrapper, `action` in the content type (protocol notes §2).
 * Replies are read whatever the SOAP version (the recorded ones are 1.1, some 1.2): reply.ts.
 */

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

export interface SoapService {
  /** WSDL namespace of the service. */
  namespace: string;
  operation: string;
  /** Whether nfeDadosMsg is wrapped in an element named after the operation (DistDFe only). */
  wrapped: boolean;
  /** Element of the reply that carries the authority's message. */
  resultElement: string;
}

export const DIST_DFE: SoapService = {
  namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe',
  operation: 'nfeDistDFeInteresse',
  wrapped: true,
  resultElement: 'retDistDFeInt',
};

export const RECEPCAO_EVENTO: SoapService = {
  namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeRecepcaoEvento4',
  operation: 'nfeRecepcaoEventoNF',
  wrapped: false,
  resultElement: 'retEnvEvento',
};

export const soapAction = (service: SoapService) => `${service.namespace}/${service.operation}`;

export const soapContentType = (service: SoapService) => `application/soap+xml; charset=utf-8; action="${soapAction(service)}"`;

/** The request envelope around a message (the message is inserted verbatim: it may be signed). */
export function buildRequestEnvelope(service: SoapService, message: string): string {
  const data = service.wrapped
    ? `<${service.operation} xmlns="${service.namespace}"><nfeDadosMsg>${message}</nfeDadosMsg></${service.operation}>`
    : `<nfeDadosMsg xmlns="${service.namespace}">${message}</nfeDadosMsg>`;
  return `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NS}"><soap12:Body>${data}</soap12:Body></soap12:Envelope>`;
}

/** The reply envelope a server sends (the simulator): DistDFe wraps the result, events do not. */
export function buildResponseEnvelope(service: SoapService, message: string): string {
  const data = service.wrapped
    ? `<${service.operation}Response xmlns="${service.namespace}"><${service.operation}Result>${message}</${service.operation}Result></${service.operation}Response>`
    : `<${service.operation}Result xmlns="${service.namespace}">${message}</${service.operation}Result>`;
  return `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NS}"><soap12:Body>${data}</soap12:Body></soap12:Envelope>`;
}

export function buildFaultEnvelope(reason: string, code: 'Sender' | 'Receiver' = 'Sender'): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NS}"><soap12:Body><soap12:Fault><soap12:Code><soap12:Value>soap12:${code}</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="en">${reason.replace(/[<&]/g, ' ')}</soap12:Text></soap12:Reason></soap12:Fault></soap12:Body></soap12:Envelope>`;
}

export class SoapFault extends Error {}
