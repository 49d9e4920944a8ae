/*
 * The sefaz module's front door: the authority's web services as other modules use them (the SOAP
 * envelope and the XML of each service, XMLDSig signing, the HTTPS transport), the filial's
 * certificate and authority endpoint, DF-e events, and its routes, batch handler and gauges for the
 * composition root. Everything else in src/modules/sefaz is private (docs/architecture.md, "Module
 * seams").
 */
export { getCertificate, loadCredentials, loadFilial, saveCertificate } from './certificate/certificate.service';
export { announceExpiringCertificates, CertificateExpiryWatcher, daysLeft, registerCertificateMetrics } from './certificate/certificate-expiry';
export { toCertificateDto } from './sefaz.mapper';
export { Certificate as SefazCertificateResponse } from './sefaz.responses';
export { SefazCertificate } from './entities/sefaz-certificate.entity';
export type { Credentials } from './certificate/certificate.service';
export { cnpjOfCertificatePem, OID_ICP_CNPJ } from './certificate/pfx';
export { open, seal } from './certificate/sealed-box';
export { authorityAnswerError } from './cstat';
export { nfeEventBatchHandler } from './dfe-batch-events';
export { registerDfeScheduleMetrics } from './dfe-schedule.metrics';
export { rewindCursorPast } from './dfe-sync.service';
export { authorityTarget, setFilialEndpoint, tpAmbOf } from './sefaz-connection';
export { sefazRoutes } from './sefaz.router';
export { postWithRetries, TransportError } from './soap/https-transport';
export { buildRetDistDFeInt, NSU_ZERO, padNsu, readDistDFeInt } from './xml/dist-dfe';
export type { DistRequest } from './xml/dist-dfe';
export { child, childText, escapeXml, extractElementText, findFirst, NFE_NS, parseRoot } from './xml/dom';
export { asciiText, brasiliaDateTime, buildProcEventoNFe, buildRetEnvEvento, buildRetEvento, EVENT_TYPES, eventId, eventOfType, readEnvEvento, readRetEnvEvento, TP_CANCELAMENTO } from './xml/events';
export type { EnvEventoResult, ReceivedEvento } from './xml/events';
export {
  AUTORIZACAO,
  buildConsSitNFe,
  buildConsStatServ,
  buildEnviNFe,
  buildInutNFe,
  buildIssuerEnvEvento,
  buildIssuerEvento,
  canonicalInfInut,
  canonicalIssuerInfEvento,
  CONSULTA_PROTOCOLO,
  INUTILIZACAO,
  issuerEventId,
  OUTBOUND_PATHS,
  readAuthorizationEnvelope,
  readAuthorizationReply,
  readInutNFe,
  readSituationReply,
  readStatusReply,
  readVoidReply,
  RET_AUTORIZACAO,
  STATUS_SERVICO,
  TP_CANCELAMENTO_SUBSTITUICAO,
  TP_CCE,
  voidId,
} from './xml/outbound';
export type { AuthorizationReply, IssuerEvent, OutboundService, ProtocolResult, SituationReply, StatusReply, VoidReply, VoidRequest } from './xml/outbound';
export { buildFaultEnvelope, buildRequestEnvelope, buildResponseEnvelope, DIST_DFE, readSoapBody, RECEPCAO_EVENTO, soapContentType, SoapFault } from './xml/soap';
export type { SoapService } from './xml/soap';
export { ufCode, ufOfCode } from './xml/uf-codes';
export { C14N, ENVELOPED, RSA_SHA1, SHA1, signEnveloped, verifyEnvelopedSignatures } from './xml/xmldsig';
export type { SigningCredentials } from './xml/xmldsig';
export { DfeScheduler } from './dfe-scheduler';
