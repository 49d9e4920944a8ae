import { defineRoutes } from '../../core/http/route';
import * as c from './sefaz.controller';
import * as schedule from './dfe-schedule.controller';
import { sefazSchemas as s } from './sefaz.schemas';

const READ = 'nfe:read';
const WRITE = 'nfe:write';
/** Uploading the filial's signing certificate is an administrator's act (`nfe:*` or `*` grant it). */
const CERTIFICATE = 'nfe:certificate';
const BASE = '/entry-document/nfe';
const TAG = 'NF-e tax authority';

/** Literal paths only; registered before '/entry-document/:id'. */
export const sefazRoutes = defineRoutes([
  { method: 'post', path: `${BASE}/consultar`, tag: TAG, summary: 'Incremental DF-e sync (distNSU from the last NSU until ultNSU = maxNSU): stores summaries, full documents and events; 429 with Retry-After while the authority asks to wait', scope: WRITE, schema: s.consultar, idempotent: 'own-transactions', handler: c.consultar },
  { method: 'post', path: `${BASE}/consultar-por-chave`, tag: TAG, summary: 'What the authority has for one access key (consChNFe), stored on the filial\'s inbound record', scope: WRITE, schema: s.consultarPorChave, idempotent: 'own-transactions', handler: c.consultarPorChave },
  { method: 'post', path: `${BASE}/download-xml`, tag: TAG, summary: 'Fetch the full XML of a summary (sends CIENCIA first when the filial\'s autoCiencia is on and nothing was manifested)', scope: WRITE, schema: s.downloadXml, idempotent: 'own-transactions', handler: c.downloadXmlHandler },
  { method: 'post', path: `${BASE}/manifestar`, tag: TAG, summary: 'Recipient manifestation (NFeRecepcaoEvento 4.00, signed): CIENCIA, CONFIRMACAO, DESCONHECIMENTO, NAO_REALIZADA (justification 15–255)', scope: WRITE, idempotent: 'own-transactions', schema: s.manifestar, handler: c.manifestar },
  { method: 'get', path: `${BASE}/certificado/:filialId`, tag: TAG, summary: "The filial's A1 certificate: subject, CNPJ, validity (never its content)", scope: READ, schema: s.certificateGet, handler: c.certificateGet },
  { method: 'put', path: `${BASE}/certificado/:filialId`, tag: TAG, summary: "Upload or replace the filial's A1 certificate ({ pfx: base64, password }); stored encrypted", scope: CERTIFICATE, schema: s.certificatePut, handler: c.certificatePut },
  { method: 'get', path: `${BASE}/dfe/:filialId`, tag: TAG, summary: "The filial's DF-e state: ultNSU, maxNSU, last answer, next allowed query, gaps, endpoints, certificate", scope: READ, schema: s.state, handler: c.state },
  { method: 'get', path: `${BASE}/dfe-schedule`, tag: TAG, summary: 'The scheduled DF-e sync of every filial the token grants: settings, last and next run, documents received, errors, "another system is consuming this CNPJ"', scope: READ, schema: s.scheduleList, handler: schedule.scheduleList },
  { method: 'get', path: `${BASE}/dfe-schedule/:filialId`, tag: TAG, summary: "The scheduled DF-e sync of one filial (as in the list)", scope: READ, schema: s.state, handler: schedule.scheduleOfFilial },
  { method: 'get', path: `${BASE}/dfe-log/:filialId`, tag: TAG, summary: "The filial's DF-e log: every exchange with the authority, newest first (?envelopes=true for the XML)", scope: READ, schema: s.log, handler: c.log },
]);
