import { Joi } from '../../core/http/schema';
import { date, hashid, money, named, obj, oneOf, page, taxDocument, timestamp } from '../../core/http/response-schema';

/** Response bodies of the NF-e routes (nfe.mapper.ts), shared by the volume, tax-authority and CT-e routes. */

export const ACCESS_KEY_EXAMPLE = '35260311222333000181550010000012341000012345';
export const accessKey = () =>
  Joi.string()
    .pattern(/^[0-9A-Z]{44}$/)
    .description('44-character access key')
    .example(ACCESS_KEY_EXAMPLE);
/** A structure this schema does not spell out field by field (its own module documents it). */
export const freeForm = (description: string) => Joi.object().unknown(true).description(description);

const environment = oneOf('PRODUCTION', 'HOMOLOGATION');

export const ValidationCheck = named(
  'NfeValidationCheck',
  obj({
    check: Joi.string().example('ACCESS_KEY_CHECK_DIGIT'),
    outcome: oneOf('PASS', 'FAIL', 'SKIPPED'),
    blocking: Joi.boolean().description('a failure of this check stops stage/import'),
    code: Joi.string().allow(null).example('NFE_RECIPIENT_MISMATCH'),
    message: Joi.string().example('The access key check digit is right'),
    details: freeForm('what the check compared (expected and found values)').optional(),
  }),
);

export const ValidationReport = named(
  'NfeValidationReport',
  obj({
    valid: Joi.boolean().description('no blocking failure'),
    blockingCodes: Joi.array().items(Joi.string().example('NFE_RECIPIENT_MISMATCH')),
    warnings: Joi.array().items(Joi.string().example('NFE_ITEMS_TOTAL_MISMATCH')),
    checks: Joi.array().items(ValidationCheck),
  }),
);

const validationSummary = obj({
  valid: Joi.boolean(),
  blockingCodes: Joi.array().items(Joi.string().example('NFE_RECIPIENT_MISMATCH')),
  warnings: Joi.array().items(Joi.string().example('NFE_ITEMS_TOTAL_MISMATCH')),
});

const inboundKeys = {
  id: hashid('nfe-inbound'),
  filialId: hashid('filial'),
  accessKey: accessKey(),
  issuer: obj({
    document: taxDocument(),
    name: Joi.string().example('Distribuidora Paulista de Alimentos Ltda'),
    uf: Joi.string().allow(null).example('SP'),
  }),
  model: Joi.string().example('55'),
  series: Joi.string().allow(null).example('1'),
  number: Joi.string().allow(null).example('1234'),
  issueDate: date(),
  issuedAt: timestamp(),
  total: money(),
  nsu: Joi.string().allow(null).description('DF-e NSU it came with (null for uploads)').example('000000000004521'),
  kind: oneOf('SUMMARY', 'FULL').description('SUMMARY: only the resNFe is known'),
  authorityStatus: oneOf('AUTHORIZED', 'DENIED', 'CANCELLED'),
  environment,
  protocol: Joi.string().allow(null).example('135260000123456'),
  authorizedAt: timestamp().allow(null),
  manifestation: obj({
    status: oneOf('NONE', 'CIENCIA', 'CONFIRMADA', 'DESCONHECIDA', 'NAO_REALIZADA'),
    protocol: Joi.string().allow(null).example('135260000654321'),
    at: timestamp().allow(null),
  }),
  hasXml: Joi.boolean(),
  source: oneOf('SEFAZ', 'UPLOAD'),
  importStatus: oneOf('PENDING', 'IMPORTED', 'IGNORED'),
  entryDocumentId: hashid('entry-document').allow(null),
  freightCte: obj({ announced: Joi.boolean(), accessKey: accessKey().allow(null), announcedAt: timestamp() })
    .allow(null)
    .description('event 610600 in the DF-e feed: a freight CT-e was authorized for this NF-e'),
  validation: validationSummary.allow(null),
  signer: obj({
    verdict: oneOf('TRUSTED', 'UNTRUSTED', 'UNVERIFIABLE').description(
      'UNTRUSTED blocks confirmation (NFE_SIGNER_UNTRUSTED); UNVERIFIABLE: the chain could not be followed (roots not installed)',
    ),
    reasons: Joi.array().items(Joi.string().example('ISSUER_MISMATCH')),
    signerDocument: Joi.string().allow(null).example('12345678000195').description("the CNPJ (or CPF) the signer's certificate names"),
  })
    .allow(null)
    .description('who signed the XML (SPEC §2); null when the signature did not verify or was stored before signers were judged'),
  authorityCheck: obj({
    outcome: oneOf('CONFIRMED', 'NOT_FOUND', 'CANCELLED', 'DENIED', 'DIGEST_MISMATCH'),
    cStat: Joi.string().allow(null).example('100'),
    checkedAt: timestamp(),
  })
    .allow(null)
    .description('the last NFeConsultaProtocolo4 of the key (uploads need CONFIRMED to be confirmed)'),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};
export const NfeInbound = named('NfeInbound', obj(inboundKeys));
export const NfeInboundPage = page('NfeInboundPage', NfeInbound);

const InboundEvent = named(
  'NfeInboundEvent',
  obj({
    type: Joi.string().example('MANIFESTED'),
    eventCode: Joi.string().allow(null).example('210200'),
    sequence: Joi.number().integer().allow(null).example(1),
    protocol: Joi.string().allow(null).example('135260000654321'),
    description: Joi.string().example('Confirmação da Operação'),
    actor: Joi.string().example('ana.souza'),
    occurredAt: timestamp(),
    data: freeForm('what the event carried').allow(null),
  }),
);

const invoice = () =>
  freeForm(
    'the parsed invoice (layout 4.00 with the PL_010 tax-reform groups): ide, issuer, recipient, items, totals, transport, payment…',
  );

export const NfeInboundDetail = named(
  'NfeInboundDetail',
  obj({
    ...inboundKeys,
    invoice: invoice().allow(null).description('null for a summary'),
    report: ValidationReport.allow(null),
    events: Joi.array().items(InboundEvent),
  }),
);

const previewKeys = {
  accessKey: accessKey(),
  invoice: invoice(),
  report: ValidationReport,
  inbound: NfeInbound.allow(null).description('the stored record of this key, if any'),
  alreadyImported: obj({
    entryDocumentId: hashid('entry-document'),
    status: Joi.string().example('DRAFT'),
    filialId: hashid('filial'),
  }).allow(null),
};
export const NfePreview = named('NfePreview', obj(previewKeys));

const ItemResolution = named(
  'NfeItemResolution',
  obj({
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product').allow(null),
    conversionFactor: Joi.number().example(12),
    source: Joi.string().allow(null).example('PRODUCT_MAP'),
    reviewStatus: oneOf('MATCHED', 'PENDING', 'IGNORED'),
    mappingSaved: Joi.boolean(),
    match: freeForm('the product-map match: status, productId, conversionFactor, source, product, suggestions').allow(null),
    purchaseOrderItemId: hashid('purchase-order-item').allow(null),
    purchaseOrderLinkSource: Joi.string().allow(null).example('XPED'),
  }),
);

export const NfeImportPreview = named(
  'NfeImportPreview',
  obj({
    ...previewKeys,
    items: Joi.array().items(ItemResolution),
    draft: freeForm('the entry document the import would create (as the entry document preview)'),
    purchaseMatch: freeForm('the purchase order the invoice matches, if any').allow(null),
    openPurchaseOrders: Joi.array().items(freeForm('an open purchase order of the supplier')),
  }),
);

export const NfeImport = named(
  'NfeImport',
  obj({
    entryDocument: freeForm('the entry document DRAFT created (EntryDocumentSummary)'),
    inbound: NfeInbound,
    items: Joi.array().items(ItemResolution),
    report: ValidationReport,
  }),
);

export const NfeStaged = named(
  'NfeStaged',
  obj({ created: Joi.boolean().description('false: the XML was already stored (200)'), inbound: NfeInbound, report: ValidationReport }),
);

/* Problem codes. */
/** Reading the XML body (400). */
export const XML_READ = [
  'MALFORMED_XML',
  'XML_DOCTYPE_FORBIDDEN',
  'NFE_XML_INVALID',
  'NFE_UNSUPPORTED_DOCUMENT',
  'NFE_UNSUPPORTED_VERSION',
  'NFE_INVALID_CONTENT',
  'NFE_MODEL_NOT_SUPPORTED',
  'NFE_BARE_DOCUMENT',
];
/** Blocking failures of the validation report (422, with the report). */
export const REPORT_BLOCKING = [
  'NFE_ACCESS_KEY_INVALID',
  'NFE_BARE_DOCUMENT',
  'NFE_ENVIRONMENT_MISMATCH',
  'NFE_LEGACY_LAYOUT',
  'NFE_MODEL_NOT_SUPPORTED',
  'NFE_NOT_AUTHORIZED',
  'NFE_PROTOCOL_DIGEST_MISMATCH',
  'NFE_PROTOCOL_MISMATCH',
  'NFE_PROTOCOL_MISSING',
  'NFE_RECIPIENT_MISMATCH',
  'NFE_SIGNATURE_INVALID',
  'NFE_SIGNATURE_MISSING',
  'NFE_ISSUER_DOCUMENT_INVALID',
  'NFE_CANCELLED',
  'NFCE_NOT_A_PURCHASE_INVOICE',
];
export const INBOUND_NOT_FOUND = ['NFE_INBOUND_NOT_FOUND'];
