/*
 * The authority module's front door: the tax authority's web services as a toolkit, with no database
 * and no business of its own — the SOAP envelope and the XML of each service, the signer, the HTTPS
 * transport with mutual TLS, the authorizers' endpoint tables, what a cStat means, and the client that
 * makes the calls. Who holds the certificate, which endpoint a filial uses and what is done with an
 * answer belong to the modules that call it (sefaz, invoices, nfce, dfe). Everything else in
 * src/modules/authority is private (docs/architecture.md, "The fiscal wing").
 */
export { authorityAnswerError, distOutcome, eventOutcome } from './cstat';
export type { DistOutcome, EventOutcome } from './cstat';
export { AUTHORIZERS, authorizerOf, contingencyOf, emissionTypeOf, issuerTargetOf, serviceUrl, UFS } from './endpoints';
export type { Authorizer, Contingency, IssuerTarget, OwnTarget } from './endpoints';
export { AuthorityClient, decodeDistReply, decodeEventReply, NoAnswerError, redactCertificate } from './authority-client';
export type { AuthorityService, AuthorityTarget, ClientOptions, DfeLogService, ExchangeRecord } from './authority-client';
export { postWithRetries, TransportError } from './soap/https-transport';
export type { PostOptions } from './soap/https-transport';
export { buildRetDistDFeInt, nsuToBigInt, NSU_ZERO, padNsu, readDfeDocument, readDistDFeInt } from './xml/dist-dfe';
export type { DfeDocument, DistQuery, DistRequest, DistResult, EventDocument, EventSummary, NfeSummary } from './xml/dist-dfe';
/** The simulator's DOM reading of requests (src/dev); the service reads through reply.ts and fiscal-xml. */
export { extractElementText, readSoapBody } from './xml/reply';
export { escapeXml, NFE_NS } from './xml/xml-text';
export {
  asciiText,
  brasiliaDateTime,
  buildEnvEvento,
  buildProcEventoNFe,
  buildRetEnvEvento,
  buildRetEvento,
  EVENT_TYPES,
  eventId,
  eventOfType,
  readEnvEvento,
  signedEvento,
  TP_CANCELAMENTO,
  TP_CTE_AUTORIZADO,
} from './xml/events';
export type { EnvEventoResult, EventResult, InfEventoFields, ManifestationEvent, ReceivedEvento } from './xml/events';
export {
  AUTORIZACAO,
  buildConsSitNFe,
  buildConsStatServ,
  buildEnviNFe,
  buildInutNFe,
  canonicalInfInut,
  CONSULTA_PROTOCOLO,
  INUTILIZACAO,
  issuerEventFields,
  OUTBOUND_PATHS,
  readInutNFe,
  RET_AUTORIZACAO,
  STATUS_SERVICO,
  TP_CANCELAMENTO_SUBSTITUICAO,
  TP_CCE,
  voidId,
} from './xml/outbound';
export type {
  AuthorizationReply,
  IssuerEvent,
  OutboundService,
  ProtocolResult,
  SituationReply,
  StatusReply,
  VoidReply,
  VoidRequest,
} from './xml/outbound';
export {
  buildFaultEnvelope,
  buildRequestEnvelope,
  buildResponseEnvelope,
  DIST_DFE,
  RECEPCAO_EVENTO,
  soapContentType,
  SoapFault,
} from './xml/soap';
export type { SoapService } from './xml/soap';
export { ufCode, ufOfCode } from './xml/uf-codes';
export { C14N, canonicalText, ENVELOPED, RSA_SHA1, SHA1, signatureFor, signerOf, signNfe, verifyEnvelopedSignatures } from './xml/xmldsig';
export type { Credentials, SignatureCheck, Signer, SigningCredentials } from './xml/xmldsig';
