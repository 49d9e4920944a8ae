import { defineRoutes } from '../../core/http/route';
import * as c from './dfe.controller';
import * as schedule from './dfe-schedule.controller';
import {
  DfeLogPage,
  DfeSchedule,
  DfeScheduleList,
  DfeState,
  Download,
  InboundConsultation,
  KeyQuery,
  Manifestation,
  SyncResult,
} from './dfe.responses';
import { dfeSchemas as s } from './dfe.schemas';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
const TAG = 'NF-e tax authority';

/* Problem codes of a call to the authority: the filial's certificate, its answer, its availability. */
const CERTIFICATE_USE = [
  'CERTIFICATE_REQUIRED',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_NOT_YET_VALID',
  'CERTIFICATE_CNPJ_MISMATCH',
  'CERTIFICATE_WITHOUT_CNPJ',
  'CERTIFICATE_UNTRUSTED',
];
const AUTHORITY = {
  429: ['SEFAZ_CONSUMO_INDEVIDO', 'SEFAZ_WAIT_REQUIRED'],
  502: ['SEFAZ_FAILURE', 'SEFAZ_SOAP_FAULT', 'SEFAZ_HTTP_ERROR', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'],
  503: ['SEFAZ_UNAVAILABLE'],
  504: ['SEFAZ_TIMEOUT'],
};
const ON_INBOUND = {
  400: ['MISSING_TENANT_HEADER'],
  404: ['FILIAL_NOT_FOUND', 'NFE_INBOUND_NOT_FOUND', 'SEFAZ_DOCUMENT_NOT_FOUND'],
  409: ['SEFAZ_SYNC_IN_PROGRESS'],
  422: [...CERTIFICATE_USE, 'SEFAZ_REJECTED', 'NFE_XML_NOT_RELEASED', 'MANIFESTATION_REQUIRED'],
  ...AUTHORITY,
};

/** The DF-e routes (literal paths only; registered before '/entry-document/:id'). */
export const dfeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/entry-document/nfe/consultar',
    tag: TAG,
    summary:
      'Incremental DF-e sync (distNSU from the last NSU until ultNSU = maxNSU): stores summaries, full documents and events; 429 with Retry-After while the authority asks to wait',
    scope: WRITE,
    schema: s.consultar,
    idempotent: 'own-transactions',
    responses: {
      body: SyncResult,
      errors: {
        400: ['MISSING_TENANT_HEADER'],
        404: ['FILIAL_NOT_FOUND'],
        409: ['SEFAZ_SYNC_IN_PROGRESS'],
        422: [...CERTIFICATE_USE, 'SEFAZ_REJECTED'],
        ...AUTHORITY,
      },
    },
    handler: c.consultar,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/consultar-por-chave',
    tag: TAG,
    summary: "What the authority has for one access key (consChNFe), stored on the filial's inbound record",
    scope: WRITE,
    schema: s.consultarPorChave,
    idempotent: 'own-transactions',
    responses: { body: KeyQuery, errors: ON_INBOUND },
    handler: c.consultarPorChave,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/download-xml',
    tag: TAG,
    summary: "Fetch the full XML of a summary (sends CIENCIA first when the filial's autoCiencia is on and nothing was manifested)",
    scope: WRITE,
    schema: s.downloadXml,
    idempotent: 'own-transactions',
    responses: { body: Download, errors: ON_INBOUND },
    handler: c.downloadXmlHandler,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/manifestar',
    tag: TAG,
    summary:
      'Recipient manifestation (NFeRecepcaoEvento 4.00, signed): CIENCIA, CONFIRMACAO, DESCONHECIMENTO, NAO_REALIZADA (justification 15–255)',
    scope: WRITE,
    idempotent: 'own-transactions',
    schema: s.manifestar,
    responses: { body: Manifestation, errors: ON_INBOUND },
    handler: c.manifestar,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/dfe/:filialId',
    tag: TAG,
    summary: "The filial's DF-e state: ultNSU, maxNSU, last answer, next allowed query, gaps, endpoints, certificate",
    scope: READ,
    schema: s.state,
    responses: { body: DfeState, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.state,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/dfe-schedule',
    tag: TAG,
    summary:
      'The scheduled DF-e sync of every filial the token grants: settings, last and next run, documents received, errors, "another system is consuming this CNPJ"',
    scope: READ,
    schema: s.scheduleList,
    responses: { body: DfeScheduleList },
    handler: schedule.scheduleList,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/dfe-schedule/:filialId',
    tag: TAG,
    summary: 'The scheduled DF-e sync of one filial (as in the list)',
    scope: READ,
    schema: s.state,
    responses: { body: DfeSchedule, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: schedule.scheduleOfFilial,
  },
  {
    method: 'get',
    path: '/entry-document/nfe/dfe-log/:filialId',
    tag: TAG,
    summary: "The filial's DF-e log: every exchange with the authority, newest first (?envelopes=true for the XML)",
    scope: READ,
    schema: s.log,
    responses: { body: DfeLogPage },
    handler: c.log,
  },
  {
    method: 'post',
    path: '/entry-document/nfe/consultar-protocolo',
    tag: 'NF-e',
    summary:
      'Consult an inbound NF-e\'s key at the authority (NFeConsultaProtocolo4): an XML uploaded by hand is confirmed only once the authority answered "authorized" with its digest (CONFIRMED); the answer is kept on the record',
    scope: WRITE,
    schema: s.consultInbound,
    idempotent: 'own-transactions',
    responses: {
      body: InboundConsultation,
      errors: {
        400: ['MISSING_TENANT_HEADER'],
        404: ['NFE_INBOUND_NOT_FOUND', 'FILIAL_NOT_FOUND'],
        409: ['CONCURRENT_UPDATE'],
        422: ['SEFAZ_REJECTED', ...CERTIFICATE_USE],
        // The issuer's consultation service (no 429 of the distribution's pacing).
        502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE', 'SEFAZ_FAILURE'],
        503: ['SEFAZ_UNAVAILABLE'],
        504: ['SEFAZ_TIMEOUT'],
      },
    },
    handler: c.consultInbound,
  },
]);
