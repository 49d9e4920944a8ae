import Joi from 'joi';
import { defineRoutes } from '../../core/http/route';
import * as c from './invoices.controller';
import * as files from './fiscal-files.controller';
import { fiscalFileSchemas as fs } from './fiscal-files.schemas';
import {
  Invoice,
  InvoiceDetail,
  InvoicePage,
  InvoicePreview,
  InvoiceSeries,
  InvoiceSeriesList,
  NumberReport,
  NumberVoid,
  SmtpSettings,
} from './invoices.responses';
import { invoiceSchemas as s } from './invoices.schemas';
import { CompanyLogo } from './invoices.responses';

const READ = 'invoice:read';
const WRITE = 'invoice:write';
/** The company's mail server is an administrator's setting (`invoice:*` or `*` grant it). */
const SMTP = 'invoice:smtp';
const TAG = 'Invoices (outbound NF-e)';

const CERTIFICATE_USE = [
  'CERTIFICATE_REQUIRED',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_NOT_YET_VALID',
  'CERTIFICATE_CNPJ_MISMATCH',
  'CERTIFICATE_WITHOUT_CNPJ',
  'CERTIFICATE_UNTRUSTED',
];
const AUTHORITY = { 502: ['SEFAZ_SOAP_FAULT', 'SEFAZ_BAD_REPLY', 'SEFAZ_TLS_FAILURE'], 503: ['SEFAZ_UNAVAILABLE'], 504: ['SEFAZ_TIMEOUT'] };
const STATES = [
  'INVOICE_SIGNED',
  'INVOICE_SENT',
  'INVOICE_AUTHORIZED',
  'INVOICE_REJECTED',
  'INVOICE_DENIED',
  'INVOICE_CANCELLED',
  'INVOICE_VOIDED',
];
const BILLING = {
  404: ['FULFILLMENT_NOT_FOUND', 'SALES_ORDER_NOT_FOUND', 'FILIAL_NOT_FOUND'],
  422: [
    'CUSTOMER_REQUIRED',
    'NOTHING_TO_INVOICE',
    'INSTALLMENTS_MISMATCH',
    'RECEIVABLES_ALREADY_SETTLED',
    'FISCAL_ENGINE_UNAVAILABLE',
    'FISCAL_DATA_MISSING',
    'FISCAL_DATA_INVALID',
    'FISCAL_RULE_MISSING',
  ],
};
const NOT_FOUND = { 404: ['INVOICE_NOT_FOUND'] };
const XML_FILE = (what: string) => Joi.string().description(what);

/** Literal paths before parameterized ones. */
export const invoiceRoutes = defineRoutes([
  {
    method: 'post',
    path: '/invoices/preview',
    tag: TAG,
    summary:
      'The NF-e a fulfilment (or an order) would get: items with their taxes from the tax engine, totals, transport, duplicatas, additional information (Lei 12.741) — no number is taken',
    scope: READ,
    schema: s.issue,
    responses: { body: InvoicePreview, errors: BILLING },
    handler: c.preview,
  },
  {
    method: 'post',
    path: '/invoices/issue',
    tag: TAG,
    summary:
      "Issue the NF-e of a fulfilment or an order: number (no gaps), XML, signature with the filial's A1, stored before sending, NFeAutorizacao4 synchronous; answers the document with its state, cStat, key and protocol. A lost answer is settled by consulting the key",
    scope: WRITE,
    schema: s.issue,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: Invoice,
      errors: {
        ...BILLING,
        409: ['FISCAL_PERIOD_CLOSED', 'ALREADY_INVOICED'],
        422: [...BILLING[422], ...CERTIFICATE_USE, 'SERIES_EXHAUSTED', 'NOSSO_NUMERO_EXHAUSTED', 'BR_CODE_INVALID'],
        ...AUTHORITY,
      },
    },
    handler: c.issue,
  },
  {
    method: 'post',
    path: '/invoices/void-numbers',
    tag: TAG,
    summary:
      'Void (inutilizar, NFeInutilizacao4) numbers of a série that will never be an NF-e: numbers not yet taken, or of REJECTED documents',
    scope: WRITE,
    schema: s.voidNumbers,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: NumberVoid,
      errors: {
        409: ['FISCAL_PERIOD_CLOSED'],
        404: ['SERIES_NOT_FOUND'],
        422: ['INVALID_RANGE', 'NUMBER_IN_USE', 'NUMBER_ALREADY_VOIDED', 'SEFAZ_REJECTED', ...CERTIFICATE_USE],
        ...AUTHORITY,
      },
    },
    handler: c.voidRange,
  },
  {
    method: 'get',
    path: '/invoices/logo',
    tag: TAG,
    summary: "The company's logo the DANFE prints (the image itself)",
    scope: 'invoice:read',
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the logo (PNG or JPEG)'),
      contentType: 'image/png',
      errors: { 404: ['LOGO_NOT_FOUND'] },
    },
    handler: c.logo,
  },
  {
    method: 'put',
    path: '/invoices/logo',
    tag: TAG,
    summary: "Upload the company's logo for its DANFE (PNG or JPEG in base64, up to 200 KB; a token granting every filial)",
    scope: 'invoice:write',
    schema: s.logo,
    responses: { body: CompanyLogo, errors: { 403: ['ALL_FILIAIS_REQUIRED'], 422: ['LOGO_TOO_LARGE', 'LOGO_INVALID'] } },
    handler: c.logoSave,
  },
  {
    method: 'delete',
    path: '/invoices/logo',
    tag: TAG,
    summary: "Remove the company's logo (the DANFE prints none)",
    scope: 'invoice:write',
    status: 204,
    responses: { errors: { 403: ['ALL_FILIAIS_REQUIRED'], 404: ['LOGO_NOT_FOUND'] } },
    handler: c.logoDelete,
  },
  {
    method: 'get',
    path: '/invoices/smtp-settings',
    tag: TAG,
    summary: "The company's own SMTP server for the NF-e emails (never its password); without one the service's configured SMTP is used",
    scope: SMTP,
    responses: { body: SmtpSettings, errors: { 403: ['ALL_FILIAIS_REQUIRED'], 404: ['SMTP_SETTINGS_NOT_FOUND'] } },
    handler: c.smtpSettings,
  },
  {
    method: 'put',
    path: '/invoices/smtp-settings',
    tag: TAG,
    summary:
      "Set the company's SMTP server for the NF-e emails (host, port, secure, user, password, from; a token granting every filial). The password is stored encrypted and never answered",
    scope: SMTP,
    schema: s.smtpSettings,
    responses: { body: SmtpSettings, errors: { 403: ['ALL_FILIAIS_REQUIRED'], 409: ['CONCURRENT_UPDATE'] } },
    handler: c.smtpSettingsSave,
  },
  {
    method: 'get',
    path: '/invoices/list/:filialId',
    tag: TAG,
    summary: "The filial's outbound NF-e, newest first (filter by status)",
    scope: READ,
    schema: s.list,
    responses: { body: InvoicePage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/invoices/detail/:id',
    tag: TAG,
    summary: 'One outbound NF-e with its events (cancellation, cartas de correção)',
    scope: READ,
    schema: s.byId,
    responses: { body: InvoiceDetail, errors: NOT_FOUND },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/invoices/series/:filialId',
    tag: TAG,
    summary: "The filial's séries and next numbers per model",
    scope: READ,
    schema: s.seriesList,
    responses: { body: InvoiceSeriesList },
    handler: c.seriesList,
  },
  {
    method: 'put',
    path: '/invoices/series/:filialId',
    tag: TAG,
    summary: 'Configure a série of a model (next number only forward; isDefault: the série new documents take)',
    scope: WRITE,
    schema: s.seriesSave,
    responses: { body: InvoiceSeries, errors: { 409: ['DUPLICATE'], 422: ['SERIES_NUMBER_BACKWARDS'] } },
    handler: c.seriesSave,
  },
  {
    method: 'get',
    path: '/invoices/series/:seriesId/numbers',
    tag: TAG,
    summary:
      'Every number the série gave out and its fate (AUTHORIZED, CANCELLED, DENIED, REJECTED, VOIDED…); `unaccounted` is always empty',
    scope: READ,
    schema: s.numbers,
    responses: { body: NumberReport, errors: { 404: ['SERIES_NOT_FOUND'] } },
    handler: c.numbers,
  },
  {
    method: 'get',
    path: '/invoices/series/:seriesId/numbers/:number/xml',
    tag: TAG,
    summary:
      'The procInutNFe (inutNFe + retInutNFe as the authority answered) that voided this number of the série (application/xml): a range of /invoices/void-numbers or an NFC-e online attempt the queue voided',
    scope: READ,
    schema: fs.voidedNumber,
    responses: {
      body: XML_FILE('the procInutNFe XML'),
      contentType: 'application/xml',
      errors: { 404: ['SERIES_NOT_FOUND', 'NUMBER_NOT_VOIDED'] },
    },
    handler: files.voidedNumberXml,
  },
  {
    method: 'get',
    path: '/invoices/:id/xml',
    tag: TAG,
    summary: 'The nfeProc (signed NFe + protNFe) as stored (application/xml)',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().description('the nfeProc XML'),
      contentType: 'application/xml',
      errors: { ...NOT_FOUND, 422: ['INVOICE_XML_NOT_AVAILABLE'] },
    },
    handler: c.xml,
  },
  {
    method: 'get',
    path: '/invoices/:id/danfe',
    tag: TAG,
    summary: 'The DANFE (application/pdf) of an authorized or cancelled NF-e',
    scope: READ,
    schema: s.byId,
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the DANFE (PDF)'),
      contentType: 'application/pdf',
      errors: { ...NOT_FOUND, 422: ['INVOICE_XML_NOT_AVAILABLE'] },
    },
    handler: c.danfe,
  },
  {
    method: 'get',
    path: '/invoices/:id/cancellation/xml',
    tag: TAG,
    summary:
      'The procEventoNFe of the cancellation (110111): the signed evento and the retEvento as the authority answered (application/xml)',
    scope: READ,
    schema: fs.cancellation,
    responses: {
      body: XML_FILE('the procEventoNFe XML'),
      contentType: 'application/xml',
      errors: { 404: ['INVOICE_NOT_FOUND', 'INVOICE_EVENT_NOT_FOUND'] },
    },
    handler: files.cancellationXml,
  },
  {
    method: 'get',
    path: '/invoices/:id/corrections/:sequence/xml',
    tag: TAG,
    summary:
      'The procEventoNFe of one carta de correção (110110, nSeqEvento): every one is kept, the latest being the one in force (application/xml)',
    scope: READ,
    schema: fs.correction,
    responses: {
      body: XML_FILE('the procEventoNFe XML'),
      contentType: 'application/xml',
      errors: { 404: ['INVOICE_NOT_FOUND', 'INVOICE_EVENT_NOT_FOUND'] },
    },
    handler: files.correctionXml,
  },
  {
    method: 'post',
    path: '/invoices/:id/resend',
    tag: TAG,
    summary: 'Correct a REJECTED NF-e (recomputed from the current data) and send it again with the same number',
    scope: WRITE,
    schema: s.resend,
    idempotent: 'own-transactions',
    responses: { body: Invoice, errors: { ...NOT_FOUND, 409: STATES, 422: [...BILLING[422], ...CERTIFICATE_USE], ...AUTHORITY } },
    handler: c.resend,
  },
  {
    method: 'post',
    path: '/invoices/:id/cancel',
    tag: TAG,
    summary: "Cancel an authorized NF-e (event 110111) within the UF's deadline; stock is not moved (goods come back through /returns)",
    scope: WRITE,
    schema: s.cancel,
    idempotent: 'own-transactions',
    responses: {
      body: Invoice,
      errors: {
        ...NOT_FOUND,
        409: ['FISCAL_PERIOD_CLOSED', ...STATES],
        422: ['CANCELLATION_DEADLINE_PASSED', 'SEFAZ_REJECTED', 'RECEIVABLE_HAS_RECEIPTS', ...CERTIFICATE_USE],
        ...AUTHORITY,
      },
    },
    handler: c.cancel,
  },
  {
    method: 'post',
    path: '/invoices/:id/correct',
    tag: TAG,
    summary: 'Carta de correção (event 110110, nSeqEvento 1..20): refuses what a CC-e may not change (values, taxes, parties, dates)',
    scope: WRITE,
    schema: s.correct,
    idempotent: 'own-transactions',
    responses: {
      body: InvoiceDetail,
      errors: {
        ...NOT_FOUND,
        409: ['FISCAL_PERIOD_CLOSED', ...STATES, 'CONCURRENT_UPDATE'],
        422: ['CORRECTION_NOT_ALLOWED', 'CORRECTION_LIMIT', 'SEFAZ_REJECTED', ...CERTIFICATE_USE],
        ...AUTHORITY,
      },
    },
    handler: c.correct,
  },
  {
    method: 'post',
    path: '/invoices/:id/void',
    tag: TAG,
    summary: 'Abandon a REJECTED NF-e: its number is voided at the authority (NFeInutilizacao4) and what it billed may be billed again',
    scope: WRITE,
    schema: s.voidOne,
    idempotent: 'own-transactions',
    responses: {
      body: Invoice,
      errors: {
        ...NOT_FOUND,
        409: ['FISCAL_PERIOD_CLOSED', ...STATES],
        422: ['NUMBER_IN_USE', 'NUMBER_ALREADY_VOIDED', 'SEFAZ_REJECTED', ...CERTIFICATE_USE],
        ...AUTHORITY,
      },
    },
    handler: c.voidOne,
  },
  {
    method: 'post',
    path: '/invoices/:id/email',
    tag: TAG,
    summary:
      "Send the authorized XML and DANFE to the customer's email (or `to`) through the company SMTP server; the send is recorded on the document",
    scope: WRITE,
    schema: s.email,
    idempotent: 'own-transactions',
    responses: { body: Invoice, errors: NOT_FOUND },
    handler: c.email,
  },
]);
