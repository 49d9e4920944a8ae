import { Joi } from '../../core/http/schema';
import { date, hashid, money, named, obj, oneOf, page, quantity, taxDocument, timestamp, unitPrice } from '../../core/http/response-schema';
import { accessKey, freeForm, NfeInboundResponse as NfeInbound } from '../inbound-nfe';

/** Response bodies of the CT-e routes (cte.mapper.ts). */

const CTE_KEY = '35260398765432000198570010000004561000004567';
const cteKey = () => accessKey().example(CTE_KEY);
const status = oneOf('RECEIVED', 'APPORTIONED', 'CANCELLED');
const method = oneOf('VALUE', 'WEIGHT', 'QUANTITY', 'MANUAL');
const basis = () => Joi.number().description('the weight of the line in the split (value, kg, quantity or share), 4 places').example(350.5);

const ValidationReport = named(
  'CteValidationReport',
  obj({
    valid: Joi.boolean(),
    blockingCodes: Joi.array().items(Joi.string().example('CTE_PAYER_MISMATCH')),
    warnings: Joi.array().items(Joi.string().example('CTE_COMPONENTS_MISMATCH')),
    checks: Joi.array().items(
      obj({
        check: Joi.string().example('PAYER'),
        outcome: oneOf('PASS', 'FAIL', 'SKIPPED'),
        blocking: Joi.boolean(),
        code: Joi.string().allow(null).example('CTE_PAYER_MISMATCH'),
        message: Joi.string().example('The filial is the payer (tomador)'),
        details: freeForm('what the check compared').optional(),
      }),
    ),
  }),
);

const cteKeys = {
  id: hashid('cte'),
  filialId: hashid('filial'),
  accessKey: cteKey(),
  status,
  carrier: obj({
    document: taxDocument().example('98765432000198'),
    name: Joi.string().example('Transportadora Rodovia Sul Ltda'),
    stateRegistration: Joi.string().allow(null).example('110042490114'),
    uf: Joi.string().allow(null).example('PR'),
  }),
  series: Joi.string().example('1'),
  number: Joi.string().example('456'),
  issueDate: date(),
  issuedAt: timestamp(),
  environment: oneOf('PRODUCTION', 'HOMOLOGATION'),
  protocol: Joi.string().allow(null).example('135260000777888'),
  authorizedAt: timestamp().allow(null),
  payerRole: oneOf('SENDER', 'SHIPPER', 'RECEIVER', 'RECIPIENT', 'OTHER'),
  serviceTotal: money().example(480),
  receivable: money().example(480),
  icms: money().example(57.6),
  nfeCount: Joi.number().integer().example(2),
  apportionment: obj({
    method,
    amount: money(),
    recoverableIcms: money(),
    pisCredit: money().description('PIS credited on the freight net of its ICMS (Lucro Real)'),
    cofinsCredit: money().description('COFINS credited on the freight net of its ICMS (Lucro Real)'),
    soldShare: money().description('part that fell on goods already sold (expensed)'),
    entryDate: date().allow(null),
    apportionedAt: timestamp().allow(null),
  }).allow(null),
  supplierId: hashid('supplier').allow(null).description('the carrier as supplier'),
  validation: obj({ valid: Joi.boolean(), blockingCodes: Joi.array().items(Joi.string()), warnings: Joi.array().items(Joi.string()) }),
  cancelledAt: timestamp().allow(null),
  cancelReason: Joi.string().allow(null),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};
export const Cte = named('Cte', obj(cteKeys));
export const CtePage = page('CtePage', Cte);

/** A payable of the carrier (payables.mapper.ts toPayableDto). */
const Payable = obj({
  id: hashid('payable'),
  filialId: hashid('filial'),
  entryDocumentId: hashid('entry-document').allow(null),
  source: Joi.string().example('CTE'),
  cteId: hashid('cte').allow(null),
  supplier: obj({
    id: hashid('supplier'),
    document: taxDocument().example('98765432000198'),
    name: Joi.string().example('Transportadora Rodovia Sul Ltda'),
  }),
  documentNumber: Joi.string().allow(null).example('456'),
  installmentNumber: Joi.number().integer().example(1),
  issueDate: date(),
  dueDate: date(),
  amount: money(),
  paidAmount: money(),
  openAmount: money(),
  status: Joi.string().example('OPEN'),
  overdue: Joi.boolean(),
  version: Joi.number().integer().example(1),
  cancelledAt: timestamp().allow(null),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

const problem = obj({
  code: Joi.string().example('CTE_NFE_NOT_BOOKED'),
  message: Joi.string(),
  details: freeForm('what the problem is about').optional(),
});

const document = () => freeForm('the parsed CT-e (cteProc 4.00): ide, parties, service components, ICMS, cargo, the NF-e carried');

const line = {
  itemId: hashid('entry-document-item'),
  lineNumber: Joi.number().integer().example(1),
  productId: hashid('product').allow(null),
};
const split = {
  basis: basis(),
  share: money().description('share of the service total'),
  icms: money(),
  icmsCredit: money(),
  pisCredit: money().description('PIS credited on the share net of its ICMS (Lucro Real)'),
  cofinsCredit: money().description('COFINS credited on the share net of its ICMS (Lucro Real)'),
};
/** What the freight does to a line (entry-document/cte-freight.ts). */
const outcome = {
  amount: money(),
  mode: oneOf('LANDED_COST', 'STOCK_ADJUSTMENT'),
  unitCostBefore: unitPrice(),
  unitCostAfter: unitPrice(),
  quantityReceived: quantity(),
  quantityInStock: quantity(),
  absorbed: money().description('part absorbed by the stock on hand'),
  soldShare: money().description('part that fell on goods already sold'),
  averageCostBefore: unitPrice().allow(null),
  averageCostAfter: unitPrice().allow(null),
};

const Allocation = named(
  'CteAllocation',
  obj({
    entryDocumentId: hashid('entry-document'),
    ...line,
    mode: oneOf('LANDED_COST', 'STOCK_ADJUSTMENT'),
    basis: basis(),
    share: money(),
    icmsCredit: money(),
    pisCredit: money(),
    cofinsCredit: money(),
    amount: money(),
    quantityReceived: quantity(),
    quantityInStock: quantity(),
    absorbed: money(),
    soldShare: money(),
    reversed: obj({ amount: money(), soldShare: money(), at: timestamp() }).allow(null),
  }),
);

const NfeLink = named(
  'CteNfeLink',
  obj({
    accessKey: accessKey(),
    inbound: NfeInbound.allow(null),
    entryDocument: obj({
      id: hashid('entry-document'),
      filialId: hashid('filial'),
      status: Joi.string().example('CONFIRMED'),
      number: Joi.string().example('1234'),
      total: money(),
      version: Joi.number().integer().example(3),
    }).allow(null),
  }),
);

export const CteDetail = named(
  'CteDetail',
  obj({
    ...cteKeys,
    document: document(),
    report: ValidationReport,
    nfe: Joi.array().items(NfeLink),
    allocations: Joi.array().items(Allocation),
    payables: Joi.array().items(Payable),
  }),
);

export const CtePreview = named('CtePreview', obj({ document: document(), report: ValidationReport, stored: Cte.allow(null) }));
export const CteStaged = named(
  'CteStaged',
  obj({ created: Joi.boolean().description('false: already stored (200)'), cte: Cte, report: ValidationReport }),
);

const planKeys = {
  method,
  taxRegime: Joi.string().example('NORMAL'),
  freight: obj({
    serviceTotal: money(),
    icms: money(),
    recoverableIcms: money(),
    pisCredit: money(),
    cofinsCredit: money(),
    amount: money().description('what is apportioned: vTPrest less the credits'),
  }),
  documents: Joi.array().items(
    obj({
      entryDocumentId: hashid('entry-document'),
      status: Joi.string().example('CONFIRMED'),
      number: Joi.string().example('1234'),
      accessKey: accessKey().allow(null),
      amount: money(),
      lines: Joi.array().items(Joi.alternatives(obj({ ...line, ...split, ...outcome }), obj({ ...line, ...split, amount: money() }))),
    }),
  ),
  unbookedNfe: Joi.array().items(accessKey()).description('NF-e the CT-e carried that no entry document holds'),
  soldShare: money(),
  entryDate: date().allow(null),
  payables: Joi.array().items(Payable),
  warnings: Joi.array().items(problem),
};

export const ApportionPreview = named(
  'CteApportionPreview',
  obj({
    cteId: hashid('cte'),
    status,
    version: Joi.number().integer().example(1),
    ...planKeys,
    payables: Joi.array().items(obj({ number: Joi.number().integer().example(1), dueDate: date(), amount: money() })),
    blockingProblems: Joi.array().items(problem),
  }),
);

export const ApportionResult = named('CteApportionResult', obj({ cte: Cte, ...planKeys }));

export const CancelView = named(
  'CteCancelView',
  obj({
    cteId: hashid('cte'),
    status,
    version: Joi.number().integer().example(2),
    documents: Joi.array().items(
      obj({
        entryDocumentId: hashid('entry-document'),
        status: Joi.string().allow(null).example('CONFIRMED'),
        lines: Joi.array().items(obj({ ...line, ...outcome })),
      }),
    ),
    payables: Joi.array().items(Payable),
    blockingProblems: Joi.array().items(problem),
  }),
);

export const CTE_XML_READ = [
  'MALFORMED_XML',
  'XML_DOCTYPE_FORBIDDEN',
  'CTE_XML_INVALID',
  'CTE_UNSUPPORTED_DOCUMENT',
  'CTE_UNSUPPORTED_VERSION',
  'CTE_INVALID_CONTENT',
  'CTE_NOT_SUPPORTED',
];
export const CTE_REPORT_BLOCKING = [
  'CTE_ACCESS_KEY_INVALID',
  'CTE_BARE_DOCUMENT',
  'CTE_ENVIRONMENT_MISMATCH',
  'CTE_MODEL_NOT_SUPPORTED',
  'CTE_NOT_AUTHORIZED',
  'CTE_PAYER_MISMATCH',
  'CTE_PROTOCOL_DIGEST_MISMATCH',
  'CTE_PROTOCOL_MISMATCH',
  'CTE_PROTOCOL_MISSING',
  'CTE_SIGNATURE_INVALID',
  'CTE_SIGNATURE_MISSING',
  'CTE_CANCELLED',
  'CTE_BILLING_MISMATCH',
  'CTE_COMPONENTS_MISMATCH',
];
