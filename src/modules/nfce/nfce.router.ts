import Joi from 'joi';
import { defineRoutes } from '../../core/http/route';
import * as c from './nfce.controller';
import * as files from './fiscal-files';
import { Nfce, NfceConfiguration, NfcePage } from './nfce.responses';
import { nfceSchemas as s } from './nfce.schemas';

const READ = 'invoice:read';
const WRITE = 'invoice:write';
const TAG = 'NFC-e (modelo 65)';
const NOT_FOUND = { 404: ['NFCE_NOT_FOUND'] };

/** Literal paths before parameterized ones. */
export const nfceRoutes = defineRoutes([
  {
    method: 'get',
    path: '/nfce/configuration/:filialId',
    tag: TAG,
    summary: "The filial's NFC-e settings (configured:false until saved)",
    scope: READ,
    schema: s.getConfiguration,
    responses: { body: NfceConfiguration },
    handler: c.getConfiguration,
  },
  {
    method: 'put',
    path: '/nfce/configuration/:filialId',
    tag: TAG,
    summary:
      'Save the NFC-e settings: série and next number (model 65), QR code version (2 with CSC, 3 per NT 2025.001), the UF consultation URLs, issue with every quick sale, synchronous deadline, identification threshold (needs version after the first save)',
    scope: WRITE,
    schema: s.putConfiguration,
    responses: {
      body: NfceConfiguration,
      errors: { 409: ['STALE_VERSION', 'DUPLICATE'], 422: ['CSC_REQUIRED', 'SERIES_NUMBER_BACKWARDS'] },
    },
    handler: c.putConfiguration,
  },
  {
    method: 'get',
    path: '/nfce/list/:filialId',
    tag: TAG,
    summary:
      "The filial's NFC-e, newest first: by status, issue date range, série, number, access key, consumer CPF/CNPJ or sale; search by key, document or number",
    scope: READ,
    schema: s.list,
    responses: { body: NfcePage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/nfce/detail/:id',
    tag: TAG,
    summary: 'One NFC-e: status (AUTHORIZED, CONTINGENCY, REJECTED…), key, QR code, protocol',
    scope: READ,
    schema: s.byId,
    responses: { body: Nfce, errors: NOT_FOUND },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/nfce/:id/xml',
    tag: TAG,
    summary: 'The nfeProc once authorized, else the signed NFe as stored (application/xml)',
    scope: READ,
    schema: s.byId,
    responses: { body: Joi.string().description('the NFC-e XML'), contentType: 'application/xml', errors: NOT_FOUND },
    handler: c.xml,
  },
  {
    method: 'get',
    path: '/nfce/:id/danfe.txt',
    tag: TAG,
    summary: 'DANFE NFC-e as plain text for ESC/POS printers (48 columns)',
    scope: READ,
    schema: s.byId,
    responses: { body: Joi.string().description('the DANFE NFC-e text'), contentType: 'text/plain', errors: NOT_FOUND },
    handler: c.danfeTxt,
  },
  {
    method: 'get',
    path: '/nfce/:id/danfe',
    tag: TAG,
    summary: 'DANFE NFC-e as an 80 mm PDF with its QR code',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the DANFE NFC-e (PDF)'),
      contentType: 'application/pdf',
      errors: NOT_FOUND,
    },
    handler: c.danfe,
  },
  {
    method: 'get',
    path: '/nfce/:id/cancellation/xml',
    tag: TAG,
    summary:
      'The procEventoNFe of the cancellation (110111): the signed evento and the retEvento as the authority answered (application/xml)',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().description('the procEventoNFe XML'),
      contentType: 'application/xml',
      errors: { 404: ['NFCE_NOT_FOUND', 'NFCE_EVENT_NOT_FOUND'] },
    },
    handler: files.cancellationXml,
  },
  {
    method: 'get',
    path: '/nfce/:id/original/xml',
    tag: TAG,
    summary:
      'What settled the online attempt this offline note replaced (application/xml): the procEventoNFe of the cancellation by substitution (110112), or the procInutNFe of its number when it never reached the authority',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().description('the procEventoNFe or procInutNFe XML'),
      contentType: 'application/xml',
      errors: { 404: ['NFCE_NOT_FOUND', 'NFCE_EVENT_NOT_FOUND'] },
    },
    handler: files.originalXml,
  },
  {
    method: 'post',
    path: '/nfce/:id/cancel',
    tag: TAG,
    summary: "Cancel an authorized NFC-e (event 110111) within the UF's window (30 minutes where the UF sets no other)",
    scope: WRITE,
    schema: s.cancel,
    idempotent: 'own-transactions',
    responses: {
      body: Nfce,
      errors: {
        ...NOT_FOUND,
        409: ['FISCAL_PERIOD_CLOSED', 'NFCE_SIGNED', 'NFCE_CONTINGENCY', 'NFCE_REJECTED', 'NFCE_CANCELLED', 'CONCURRENT_UPDATE'],
        422: ['CANCELLATION_DEADLINE_PASSED', 'SEFAZ_REJECTED', 'CERTIFICATE_REQUIRED', 'CERTIFICATE_EXPIRED'],
        502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'],
        503: ['SEFAZ_UNAVAILABLE'],
        504: ['SEFAZ_TIMEOUT'],
      },
    },
    handler: c.cancel,
  },
  {
    method: 'post',
    path: '/nfce/:id/cancel-original',
    tag: TAG,
    summary:
      "Settle the online attempt an offline note replaced: authorized after all → cancelled by substitution (event 110112, chNFeRef = this note's key); never at the authority → its number voided. The queue does it by itself once the note is authorized",
    scope: WRITE,
    schema: s.cancelOriginal,
    idempotent: 'own-transactions',
    responses: {
      body: Nfce,
      errors: {
        ...NOT_FOUND,
        409: ['NO_SUBSTITUTION_PENDING', 'NFCE_SIGNED', 'NFCE_CONTINGENCY', 'NFCE_REJECTED', 'NFCE_CANCELLED', 'CONCURRENT_UPDATE'],
        422: ['CANCELLATION_DEADLINE_PASSED', 'SEFAZ_REJECTED', 'CERTIFICATE_REQUIRED', 'CERTIFICATE_EXPIRED'],
        502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'],
        503: ['SEFAZ_UNAVAILABLE'],
        504: ['SEFAZ_TIMEOUT'],
      },
    },
    handler: c.cancelOriginal,
  },
]);
