import { Joi } from '../../core/http/schema';
import {
  date,
  hashid,
  money,
  named,
  obj,
  oneOf,
  Pagination,
  percent,
  quantity,
  taxDocument,
  timestamp,
  unitPrice,
} from '../../core/http/response-schema';
import { PayableResponse as Payable } from '../payables';
import { ENTRY_CFOP_SOURCES, NFE_PURPOSES, OPERATION_CLASS_SOURCES, OPERATION_CLASSES } from './fiscal/fiscal.types';

/** Response bodies of the entry-document routes (entry-document.mapper.ts, fiscal/fiscal.mapper.ts, confirm.ts, cancel.ts). */
const status = oneOf('DRAFT', 'CONFIRMED', 'CANCELLED');
const operationClass = () => oneOf(...OPERATION_CLASSES);
const taxRegime = () => oneOf('SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL');
const factor = () => Joi.number().description('conversion factor, up to 6 decimal places').example(12);
const cfop = () =>
  Joi.string()
    .pattern(/^\d{4}$/)
    .example('1102');
const lineNumber = () => Joi.number().integer().example(1);
const version = () => Joi.number().integer().example(1);
const accessKey = () => Joi.string().example('35260311222333000181550010000183421000183428');
const totalKeys = {
  products: money(),
  freight: money(),
  insurance: money(),
  discount: money(),
  otherExpenses: money(),
  ipi: money(),
  icmsSt: money(),
  total: money(),
};
/** The NF-e's tax-reform (IBS/CBS/IS) values as imported: decimals as numbers, codes as text. */
const reformTaxes = () => Joi.object().unknown(true).description("the NF-e's IBS/CBS/IS groups as imported (NF-e imports only)");

/** A finding: confirm-preview's blocking problems (blocksConfirmation) and warnings. */
export const EntryDocumentCheck = named(
  'EntryDocumentCheck',
  obj({
    code: Joi.string().example('INSTALLMENTS_TOTAL_MISMATCH'),
    message: Joi.string().example('The installments add up to 1,200.00 but the payable total is 1,289.90'),
    blocksConfirmation: Joi.boolean(),
    lineNumber: lineNumber().optional(),
    details: Joi.object().unknown(true).optional(),
  }),
);

const Tax = obj({
  cst: Joi.string().allow(null).example('00'),
  base: money().allow(null),
  rate: percent().allow(null),
  value: money().allow(null),
  snCreditRate: percent().allow(null).optional().description('ICMS of a Simples Nacional supplier: pCredSN'),
  snCreditValue: money().optional().description('ICMS of a Simples Nacional supplier: vCredICMSSN, credited by a regular-regime buyer'),
  fcpBase: money().allow(null).optional().description('ICMS-ST: vBCFCPST'),
  fcpRate: percent().allow(null).optional().description('ICMS-ST: pFCPST'),
  fcpValue: money().optional().description('ICMS-ST: vFCPST, part of value'),
  retained: obj({
    base: money(),
    rate: percent().allow(null),
    substituteValue: money().allow(null),
    value: money(),
    fcpBase: money().allow(null),
    fcpRate: percent().allow(null),
    fcpValue: money().allow(null),
  })
    .optional()
    .description(
      'ICMS of goods bought with CST 60 / CSOSN 500: vBCSTRet, pST, vICMSSubstituto, vICMSSTRet and the FCP-ST retained the supplier declares',
    ),
});

const CostBreakdown = named(
  'EntryDocumentLineCost',
  obj({
    products: money(),
    discount: money(),
    freight: money(),
    insurance: money(),
    otherExpenses: money(),
    ipi: money(),
    icmsSt: money(),
    grossTotal: money(),
    credits: obj({ icms: money(), pis: money(), cofins: money(), ipi: money() }),
    pisCofinsCreditBase: money(),
    importCosts: obj({
      duty: money().description('vII: in the gross total, not owed to the foreign supplier'),
      customsExpenses: money().description('vDespAdu + IOF + AFRMM: cost only'),
    })
      .optional()
      .description('an imported line (entry CFOP 3xxx); absent otherwise'),
    reformCredits: obj({ cbs: money(), ibs: money() })
      .optional()
      .description('CBS/IBS credited (2027 rule set, EC 132/2023); absent when none'),
    costTotal: money().description('gross total less the credits'),
    stockQuantity: quantity(),
    unitCost: unitPrice().description('net cost per stock unit'),
  }),
);

const bookingKeys = {
  entryCfop: cfop().allow(null),
  entryCfopSource: oneOf(...ENTRY_CFOP_SOURCES),
  operationClass: operationClass().allow(null),
  operationClassSource: oneOf(...OPERATION_CLASS_SOURCES),
  cost: CostBreakdown,
};

export const EntryDocumentItem = named(
  'EntryDocumentItem',
  obj({
    id: hashid('entry-document-item').allow(null).description('null in previews'),
    lineNumber: lineNumber(),
    productId: hashid('product').allow(null),
    product: obj({
      code: Joi.string().example('CAFE-500'),
      name: Joi.string().example('Café torrado e moído 500 g'),
      unit: Joi.string().example('UN'),
      stockControlled: Joi.boolean(),
    }).allow(null),
    reviewStatus: oneOf('MATCHED', 'PENDING', 'IGNORED'),
    supplierProductCode: Joi.string().allow(null).example('7891-CX12'),
    description: Joi.string().example('CAFE TORRADO MOIDO 500G CX C/12'),
    ncm: Joi.string().allow(null).example('09012100'),
    cfop: cfop().allow(null).example('5102'),
    unit: Joi.string().example('CX'),
    quantity: quantity(),
    unitPrice: unitPrice(),
    total: money(),
    discount: money(),
    freight: money(),
    insurance: money(),
    otherExpenses: money(),
    landedTotal: money(),
    apportionedFreight: money().description('CT-e freight apportioned to the line'),
    taxes: obj({ icms: Tax, icmsSt: Tax, ipi: Tax, pis: Tax, cofins: Tax }),
    conversionFactor: factor(),
    stockQuantity: quantity(),
    unitCost: unitPrice(),
    declared: obj({
      code: Joi.string().allow(null).example('7891-CX12'),
      description: Joi.string().allow(null).example('CAFE TORRADO MOIDO 500G CX C/12'),
      unit: Joi.string().allow(null).example('CX'),
      quantity: quantity().allow(null),
      unitPrice: unitPrice().allow(null),
      ncm: Joi.string().allow(null).example('09012100'),
      cfop: cfop().allow(null).example('5102'),
    }).description("the supplier's values as invoiced"),
    purchaseOrderItemId: hashid('purchase-order-item').allow(null),
    reformTaxes: reformTaxes().optional(),
    ...bookingKeys,
  }),
);

const Installment = named('EntryDocumentInstallment', obj({ number: Joi.number().integer().example(1), dueDate: date(), amount: money() }));

const TaxCredit = named(
  'EntryDocumentTaxCredit',
  obj({
    tax: oneOf('ICMS', 'PIS', 'COFINS', 'IPI', 'CBS', 'IBS'),
    base: money(),
    amount: money(),
    taxRegime: taxRegime(),
    entryDate: date(),
    status: oneOf('RECORDED', 'REVERSED'),
    recordedAt: timestamp(),
    reversedAt: timestamp().allow(null),
  }),
);

const MatchFinding = obj({
  code: Joi.string().example('PURCHASE_PRICE_OVER_TOLERANCE'),
  message: Joi.string().example('Line 1 costs 4.2 % more than the order'),
  blocksConfirmation: Joi.boolean(),
  lineNumber: lineNumber().optional(),
  details: Joi.object().unknown(true).optional(),
});

export const PurchaseMatch = named(
  'EntryDocumentPurchaseMatch',
  obj({
    tolerances: obj({ quantityPct: percent(), pricePct: percent(), mode: oneOf('BLOCK', 'WARN') }),
    lines: Joi.array().items(
      obj({
        lineNumber: lineNumber(),
        purchaseOrderItemId: hashid('purchase-order-item'),
        purchaseOrderId: hashid('purchase-order').allow(null),
        purchaseOrderCode: Joi.number().integer().allow(null).example(314),
        purchaseOrderStatus: oneOf('DRAFT', 'APPROVED', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED', 'CLOSED').allow(null),
        orderLineNumber: lineNumber().allow(null),
        productId: hashid('product').allow(null),
        unit: Joi.string().allow(null).example('UN'),
        ordered: quantity(),
        cancelled: quantity(),
        alreadyReceived: quantity(),
        thisReceipt: quantity(),
        openAfter: quantity(),
        orderUnitPrice: unitPrice().allow(null),
        invoiceUnitPrice: unitPrice(),
        priceDifferencePct: percent().allow(null),
        quantityStatus: oneOf('OK', 'WITHIN_TOLERANCE', 'OVER_TOLERANCE').allow(null),
        priceStatus: oneOf('OK', 'BELOW_ORDER', 'WITHIN_TOLERANCE', 'OVER_TOLERANCE').allow(null),
        receives: Joi.boolean(),
        problems: Joi.array().items(Joi.string().example('PURCHASE_ORDER_NOT_RECEIVABLE')),
      }),
    ),
    blockingProblems: Joi.array().items(MatchFinding),
    warnings: Joi.array().items(MatchFinding),
  }),
);

/** The inbound NF-e a document was imported from (nfe.mapper.ts toInboundDto). */
const Nfe = named(
  'EntryDocumentNfe',
  obj({
    id: hashid('nfe-inbound'),
    filialId: hashid('filial'),
    accessKey: accessKey(),
    issuer: obj({
      document: taxDocument(),
      name: Joi.string().example('Distribuidora Santa Clara Ltda'),
      uf: Joi.string().allow(null).example('SP'),
    }),
    model: Joi.string().example('55'),
    series: Joi.string().allow(null).example('1'),
    number: Joi.string().allow(null).example('18342'),
    issueDate: date(),
    issuedAt: timestamp(),
    total: money(),
    nsu: Joi.string().allow(null).example('000000000004217'),
    kind: oneOf('SUMMARY', 'FULL'),
    authorityStatus: oneOf('AUTHORIZED', 'DENIED', 'CANCELLED'),
    environment: oneOf('PRODUCTION', 'HOMOLOGATION'),
    protocol: Joi.string().allow(null).example('135260000418273'),
    authorizedAt: timestamp().allow(null),
    manifestation: obj({
      status: oneOf('NONE', 'CIENCIA', 'CONFIRMADA', 'DESCONHECIDA', 'NAO_REALIZADA'),
      protocol: Joi.string().allow(null),
      at: timestamp().allow(null),
    }),
    hasXml: Joi.boolean(),
    source: oneOf('SEFAZ', 'UPLOAD'),
    importStatus: oneOf('PENDING', 'IMPORTED', 'IGNORED'),
    entryDocumentId: hashid('entry-document').allow(null),
    freightCte: obj({ announced: Joi.boolean(), accessKey: Joi.string().allow(null), announcedAt: timestamp() }).allow(null),
    validation: obj({
      valid: Joi.boolean(),
      blockingCodes: Joi.array().items(Joi.string()),
      warnings: Joi.array().items(Joi.string()),
    }).allow(null),
    signer: obj({
      verdict: oneOf('TRUSTED', 'UNTRUSTED', 'UNVERIFIABLE'),
      reasons: Joi.array().items(Joi.string().example('SELF_SIGNED')),
      signerDocument: Joi.string().allow(null).example('12345678000195'),
    })
      .allow(null)
      .description('who signed the XML; UNTRUSTED blocks confirmation'),
    authorityCheck: obj({
      outcome: oneOf('CONFIRMED', 'NOT_FOUND', 'CANCELLED', 'DENIED', 'DIGEST_MISMATCH'),
      cStat: Joi.string().allow(null).example('100'),
      checkedAt: timestamp(),
    })
      .allow(null)
      .description('the last NFeConsultaProtocolo4 of an uploaded XML'),
    version: version(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

const summaryKeys = {
  id: hashid('entry-document'),
  filialId: hashid('filial'),
  status,
  origin: oneOf('MANUAL', 'NFE_XML', 'NFE_SEFAZ'),
  model: Joi.string().example('55'),
  series: Joi.string().example('1'),
  number: Joi.string().example('18342'),
  accessKey: accessKey().allow(null),
  issueDate: date(),
  entryDate: date(),
  supplier: obj({
    id: hashid('supplier'),
    document: taxDocument(),
    name: Joi.string().example('Distribuidora Santa Clara Ltda'),
    stateRegistration: Joi.string().allow(null).example('110042490114'),
    uf: Joi.string().allow(null).example('SP'),
  }),
  operationNature: Joi.string().allow(null).example('Venda de mercadoria adquirida de terceiros'),
  purpose: oneOf(...NFE_PURPOSES).description('finNFe'),
  referencedKeys: Joi.array().items(accessKey()),
  taxRegime: taxRegime().allow(null).description("the filial's regime at confirmation"),
  totals: obj(totalKeys),
  expectedTotals: Joi.object().pattern(Joi.string(), money()).allow(null).description("the NF-e's ICMSTot (imports)"),
  reformTaxes: reformTaxes().optional(),
  itemCount: Joi.number().integer().example(12),
  pendingItemCount: Joi.number().integer().example(0),
  notes: Joi.string().allow(null).example('Conferido por Ana na doca 2'),
  cancelReason: Joi.string().allow(null).example('Nota emitida em duplicidade'),
  version: version(),
  confirmedAt: timestamp().allow(null),
  cancelledAt: timestamp().allow(null),
  nfeCancelledByIssuerAt: timestamp().allow(null),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const EntryDocumentSummary = named('EntryDocumentSummary', obj(summaryKeys));
export const EntryDocumentPage = named('EntryDocumentPage', obj({ data: Joi.array().items(EntryDocumentSummary), pagination: Pagination }));

const detailKeys = {
  ...summaryKeys,
  items: Joi.array().items(EntryDocumentItem),
  installments: Joi.array().items(Installment),
  payables: Joi.array().items(Payable),
  taxCredits: Joi.array().items(TaxCredit),
  nfe: Nfe.allow(null),
  review: obj({ blockingProblems: Joi.array().items(EntryDocumentCheck), warnings: Joi.array().items(EntryDocumentCheck) })
    .allow(null)
    .description('DRAFT only'),
  purchaseMatch: PurchaseMatch.allow(null),
};

export const EntryDocument = named('EntryDocument', obj(detailKeys));

const StockMovement = named(
  'EntryDocumentStockMovement',
  obj({
    productId: hashid('product'),
    lineNumber: lineNumber().allow(null),
    direction: oneOf('IN', 'OUT'),
    quantity: quantity(),
    unitCost: unitPrice(),
    balanceBefore: quantity(),
    balanceAfter: quantity(),
    averageCostBefore: unitPrice(),
    averageCostAfter: unitPrice(),
  }),
);

const ThirdPartyMovement = named(
  'EntryDocumentThirdPartyMovement',
  obj({
    productId: hashid('product'),
    lineNumber: lineNumber().allow(null),
    ownerDocument: taxDocument(),
    direction: oneOf('IN', 'OUT'),
    quantity: quantity(),
    value: money(),
    balanceBefore: quantity(),
    balanceAfter: quantity(),
  }),
);

const postings = { stockMovements: Joi.array().items(StockMovement), thirdPartyStockMovements: Joi.array().items(ThirdPartyMovement) };

/** Confirm and cancel: the document as it is now and what was posted. */
export const EntryDocumentPosted = named('EntryDocumentPosted', obj({ ...detailKeys, ...postings }));

/** apply-product-map: the document and the lines the map resolved. */
export const EntryDocumentMapApplied = named(
  'EntryDocumentMapApplied',
  obj({
    ...detailKeys,
    applied: Joi.array().items(
      obj({ itemId: hashid('entry-document-item'), lineNumber: lineNumber(), productId: hashid('product'), conversionFactor: factor() }),
    ),
  }),
);

/** preview-manual: the document the create would store, nothing written. */
export const EntryDocumentPreview = named(
  'EntryDocumentPreview',
  obj({
    id: hashid('entry-document').allow(null).description('always null: nothing is stored'),
    filialId: hashid('filial'),
    status: oneOf('DRAFT').allow(null),
    origin: oneOf('MANUAL', 'NFE_XML', 'NFE_SEFAZ'),
    model: Joi.string().example('55'),
    series: Joi.string().example('1'),
    number: Joi.string().example('18342'),
    accessKey: accessKey().allow(null),
    issueDate: date(),
    entryDate: date(),
    supplier: obj({
      id: hashid('supplier').allow(null),
      document: taxDocument().allow(null),
      name: Joi.string().allow(null).example('Distribuidora Santa Clara Ltda'),
      stateRegistration: Joi.string().allow(null).example('110042490114'),
      uf: Joi.string().allow(null).example('SP'),
      registered: Joi.boolean().description('false: not in the supplier master yet (the create registers it)'),
    }),
    operationNature: Joi.string().allow(null),
    purpose: oneOf(...NFE_PURPOSES),
    referencedKeys: Joi.array().items(accessKey()),
    notes: Joi.string().allow(null),
    reformTaxes: reformTaxes().optional(),
    items: Joi.array().items(EntryDocumentItem),
    totals: obj(totalKeys),
    installments: Joi.array().items(Installment),
    installmentCheck: obj({
      installmentsTotal: money(),
      documentTotal: money(),
      payableTotal: money(),
      difference: money(),
      matches: Joi.boolean(),
    }).allow(null),
    payableTotal: money(),
    payables: Joi.array().items(Installment).description('the installments the payables would be'),
    warnings: Joi.array().items(EntryDocumentCheck),
    purchaseMatch: PurchaseMatch.allow(null),
  }),
);

export const ConfirmPreview = named(
  'EntryDocumentConfirmPreview',
  obj({
    entryDocumentId: hashid('entry-document'),
    status,
    version: version(),
    taxRegime: taxRegime().allow(null),
    lines: Joi.array().items(
      obj({
        lineNumber: lineNumber(),
        productId: hashid('product').allow(null),
        description: Joi.string().example('CAFE TORRADO MOIDO 500G CX C/12'),
        declaredCfop: cfop().allow(null).example('5102'),
        ...bookingKeys,
        posts: obj({ stock: oneOf('OWN', 'THIRD_PARTY', 'NONE'), payable: Joi.boolean() }),
        stockNote: Joi.string().allow(null).example('the product does not control stock'),
        effect: Joi.string().example('Purchase for resale: enters own stock at its net cost and is owed to the supplier'),
      }),
    ),
    ...postings,
    payableTotal: money().allow(null),
    payables: Joi.array().items(Installment),
    taxCredits: Joi.array().items(obj({ tax: oneOf('ICMS', 'PIS', 'COFINS', 'IPI', 'CBS', 'IBS'), base: money(), amount: money() })),
    warnings: Joi.array().items(EntryDocumentCheck),
    blockingProblems: Joi.array().items(EntryDocumentCheck),
    purchaseMatch: PurchaseMatch.allow(null),
  }),
);

export const CancelPreview = named(
  'EntryDocumentCancelPreview',
  obj({
    entryDocumentId: hashid('entry-document'),
    status,
    version: version(),
    ...postings,
    payables: Joi.array().items(Payable),
    taxCreditsReversed: Joi.array().items(TaxCredit),
    warnings: Joi.array().items(EntryDocumentCheck),
    blockingProblems: Joi.array().items(EntryDocumentCheck),
  }),
);

const stamp = () => obj({ by: Joi.string().example('ana.souza'), at: timestamp() });

export const AuditSummary = named(
  'EntryDocumentAuditSummary',
  obj({
    entryDocumentId: hashid('entry-document'),
    status: oneOf('DRAFT', 'CONFIRMED', 'CANCELLED', 'DELETED'),
    created: stamp().allow(null),
    lastUpdated: obj({ by: Joi.string().example('ana.souza'), at: timestamp(), count: Joi.number().integer().example(2) }).allow(null),
    confirmed: stamp().allow(null),
    cancelled: stamp().allow(null),
    deleted: stamp().allow(null),
  }),
);

export const AuditHistoryPage = named(
  'EntryDocumentAuditPage',
  obj({
    data: Joi.array().items(
      obj({
        action: Joi.string().example('UPDATED'),
        actor: Joi.string().example('ana.souza'),
        requestId: Joi.string().allow(null).example('5f1c9e0a-7a43-4c1e-9b7e-2f4d8c6a1b30'),
        at: timestamp(),
        changes: Joi.object()
          .unknown(true)
          .allow(null)
          .description('field → [before, after]')
          .example({ notes: [null, 'Conferido por Ana'] }),
      }),
    ),
    pagination: Pagination,
  }),
);

/* CFOP rules, the fiscal defaults and third-party stock (fiscal/fiscal.mapper.ts, fiscal/cfop-rule.service.ts). */

export const CfopRule = named(
  'EntryCfopRule',
  obj({
    id: hashid('entry-cfop-rule'),
    issuerCfop: cfop().example('5910'),
    ncm: Joi.string().allow(null).description('an NCM prefix, 2 to 8 digits').example('0901'),
    productId: hashid('product').allow(null),
    entryCfop: cfop().example('1910'),
    operationClass: operationClass().allow(null),
    version: version(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export const CfopRulePage = named('EntryCfopRulePage', obj({ data: Joi.array().items(CfopRule), pagination: Pagination }));

const credits = () =>
  obj({
    icms: Joi.boolean(),
    pisCofins: Joi.boolean(),
    ipi: Joi.boolean(),
    cbsIbs: Joi.boolean().description('CBS/IBS credit under the 2027 rule set'),
  });
export const FiscalDefaults = named(
  'EntryFiscalDefaults',
  obj({
    defaultEntryCfops: Joi.array().items(obj({ issuerCfop: Joi.string().example('x102'), entryCfop: Joi.string().example('x102') })),
    entryCfops: Joi.array().items(
      obj({
        entryCfop: Joi.string().example('x102'),
        operationClass: operationClass().allow(null),
        icmsCredit: Joi.boolean(),
        description: Joi.string().example('Compra para comercialização'),
        posting: obj({
          stock: oneOf('OWN', 'THIRD_PARTY', 'NONE').allow(null),
          payable: Joi.boolean().allow(null),
          noCredit: Joi.boolean(),
          fromThirdParty: Joi.boolean(),
          effect: Joi.string(),
        })
          .optional()
          .description("where the entry CFOP posts apart from its class's effect (null: as the class)"),
      }),
    ),
    operationClasses: Joi.array().items(
      obj({
        operationClass: operationClass(),
        stock: oneOf('OWN', 'THIRD_PARTY', 'NONE'),
        payable: Joi.boolean(),
        credits: credits(),
        refused: Joi.boolean(),
        effect: Joi.string(),
      }),
    ),
    purposes: Joi.array().items(
      obj({
        finNFe: oneOf(...NFE_PURPOSES),
        name: Joi.string().example('Normal'),
        operationClass: operationClass().allow(null),
        payable: Joi.boolean(),
        creditsOfBaseClass: Joi.boolean(),
      }),
    ),
    returnOfOursIssuerCfops: Joi.array()
      .items(Joi.string().example('x918'))
      .description('finNFe 4 with these issuer CFOPs is our own goods coming back, booked by its entry CFOP'),
    simplesCreditCsosns: Joi.array()
      .items(Joi.string().example('101'))
      .description('CSOSNs whose vCredICMSSN a regular-regime buyer credits'),
    ruleSets: Joi.array().items(
      obj({
        ruleSet: oneOf('PRE_REFORM', 'CBS_2027'),
        from: Joi.string().example('2027-01-01'),
        pisCofins: Joi.boolean(),
        cbsIbs: Joi.boolean(),
      }),
    ),
    taxRegimes: Joi.array().items(
      obj({
        taxRegime: taxRegime(),
        icmsCredit: Joi.boolean(),
        ipiCredit: Joi.boolean(),
        pisCofins: obj({ pisRate: percent().example(1.65), cofinsRate: percent().example(7.6) }).allow(null),
      }),
    ),
    pisCofinsCreditBase: obj({
      excludesIcms: Joi.boolean(),
      includesIcmsSt: Joi.boolean(),
      includesIpi: Joi.boolean(),
      noCreditCsts: Joi.array().items(Joi.string().example('04')),
    }),
  }),
);

const ThirdPartyBalance = named(
  'ThirdPartyStockBalance',
  obj({
    id: hashid('third-party-stock'),
    productId: hashid('product'),
    ownerDocument: taxDocument(),
    ownerSupplierId: hashid('supplier').allow(null),
    quantity: quantity(),
    value: money(),
    updatedAt: timestamp(),
  }),
);
export const ThirdPartyStockPage = named(
  'ThirdPartyStockPage',
  obj({ data: Joi.array().items(ThirdPartyBalance), pagination: Pagination }),
);
