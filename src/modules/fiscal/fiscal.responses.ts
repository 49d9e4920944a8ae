import { Joi } from '../../core/http/schema';
import {
  date,
  hashid,
  money,
  named,
  obj,
  oneOf,
  page,
  percent,
  quantity,
  taxDocument,
  timestamp,
  unitPrice,
} from '../../core/http/response-schema';

/** Response bodies of the fiscal routes (fiscal.mapper.ts). */
const audit = { version: Joi.number().integer().example(1), createdAt: timestamp(), updatedAt: timestamp() };
const pctOrNull = () => percent().allow(null);
const moneyOrNull = () => money().allow(null);

export const TaxGroup = named(
  'TaxGroup',
  obj({
    id: hashid('tax-group'),
    code: Joi.string().example('REVENDA'),
    name: Joi.string().example('Revenda de mercadorias'),
    active: Joi.boolean(),
    ...audit,
  }),
);
export const TaxGroupPage = page('TaxGroupPage', TaxGroup);

export const FiscalRule = named(
  'FiscalRule',
  obj({
    id: hashid('fiscal-rule'),
    taxGroupId: hashid('tax-group'),
    operation: oneOf('SALE', 'RETURN', 'TRANSFER', 'BONUS'),
    destination: oneOf('INTERNAL', 'INTERSTATE', 'ABROAD'),
    contributor: Joi.boolean(),
    validFrom: date(),
    validTo: date().allow(null),
    cfop: Joi.string().example('5102'),
    operationNature: Joi.string().allow(null).example('Venda de mercadoria'),
    icmsCst: Joi.string().allow(null).example('00'),
    csosn: Joi.string().allow(null).example('102'),
    icmsBaseReduction: pctOrNull(),
    icmsRate: pctOrNull(),
    stMode: oneOf('NONE', 'MVA', 'ALREADY_TAXED', 'AGREEMENT'),
    stMva: pctOrNull(),
    stBaseReduction: pctOrNull(),
    pisCst: Joi.string().allow(null).example('01'),
    pisRate: pctOrNull(),
    cofinsCst: Joi.string().allow(null).example('01'),
    cofinsRate: pctOrNull(),
    ipiCst: Joi.string().allow(null).example('50'),
    ipiRate: pctOrNull(),
    ipiEnquadramento: Joi.string().allow(null).example('999'),
    ibsCbsCst: Joi.string().allow(null).example('000'),
    ibsCbsClass: Joi.string().allow(null).example('000001'),
    benefitCode: Joi.string().allow(null).example('SP810001'),
    reliefReason: Joi.number().integer().allow(null).example(8),
    reliefDeducted: Joi.boolean(),
    active: Joi.boolean(),
    ...audit,
  }),
);
export const FiscalRulePage = page('FiscalRulePage', FiscalRule);

export const UfRate = named(
  'FiscalUfRate',
  obj({
    id: hashid('fiscal-uf-rate'),
    shipped: Joi.boolean().description('shipped with the service (company overrides win)'),
    uf: Joi.string().example('SP'),
    taxGroupId: hashid('tax-group').allow(null),
    validFrom: date(),
    validTo: date().allow(null),
    internalRate: percent(),
    fcpRate: percent(),
    difalDoubleBase: Joi.boolean(),
    source: Joi.string().example('RICMS/SP art. 52'),
    sourceDate: date(),
  }),
);
export const StAgreement = named(
  'FiscalStAgreement',
  obj({
    id: hashid('st-agreement'),
    originUf: Joi.string().example('SP'),
    destinationUf: Joi.string().example('RJ'),
    ncmPrefix: Joi.string().example('2203'),
    cest: Joi.string().allow(null).example('0302100'),
    mva: percent(),
    destinationInternalRate: percent().allow(null),
    validFrom: date(),
    validTo: date().allow(null),
    source: Joi.string().example('Protocolo ICMS 11/1991'),
    active: Joi.boolean(),
    version: Joi.number().integer().example(1),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export const StAgreementPage = page('FiscalStAgreementPage', StAgreement);
export const UfRateList = named('FiscalUfRateList', obj({ data: Joi.array().items(UfRate) }));

export const ApproximateTaxLoad = named(
  'ApproximateTaxLoad',
  obj({
    uf: Joi.string().example('SP'),
    rows: Joi.number().integer().example(10342),
    tableVersion: Joi.string().example('26.1.A'),
    tableKey: Joi.string().allow('').example('0C4F9A'),
    source: Joi.string().example('IBPT'),
    validFrom: date(),
    validTo: date(),
  }),
);

const address = named(
  'FiscalDocumentAddress',
  obj({
    street: Joi.string().allow('').example('Avenida Paulista'),
    number: Joi.string().example('1000'),
    complement: Joi.string().allow(null),
    district: Joi.string().allow('').example('Bela Vista'),
    municipalityCode: Joi.string().allow('').example('3550308'),
    municipalityName: Joi.string().allow('').example('São Paulo'),
    uf: Joi.string().example('SP'),
    postalCode: Joi.string().allow(null).example('01310100'),
    countryCode: Joi.string().example('1058'),
    countryName: Joi.string().example('BRASIL'),
    phone: Joi.string().allow(null),
  }),
);

const pisCofins = named('FiscalPisCofins', obj({ cst: Joi.string().example('01'), base: money(), rate: percent(), value: money() }));

const item = named(
  'FiscalDocumentItem',
  obj({
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    salesOrderItemId: hashid('sales-order-item').allow(null),
    code: Joi.string().example('CAFE-500'),
    gtin: Joi.string().example('SEM GTIN'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    ncm: Joi.string().example('09012100'),
    cest: Joi.string().allow(null),
    benefitCode: Joi.string().allow(null).description('cBenef'),
    cfop: Joi.string().example('5102'),
    unit: Joi.string().example('UN'),
    quantity: quantity(),
    unitPrice: unitPrice(),
    grossTotal: money(),
    taxableGtin: Joi.string().example('SEM GTIN'),
    taxableUnit: Joi.string().example('UN'),
    taxableQuantity: quantity(),
    taxableUnitPrice: unitPrice(),
    freight: money(),
    insurance: money(),
    discount: money(),
    otherExpenses: money(),
    icms: named(
      'FiscalIcms',
      obj({
        origin: Joi.number().integer().example(0),
        cst: Joi.string().allow(null).example('00'),
        csosn: Joi.string().allow(null),
        modBC: Joi.number().integer().allow(null).example(3),
        baseReduction: pctOrNull(),
        base: money(),
        rate: percent(),
        value: money(),
        fcpBase: moneyOrNull(),
        fcpRate: pctOrNull(),
        fcpValue: moneyOrNull(),
        st: named(
          'FiscalIcmsSt',
          obj({
            modBCST: Joi.number().integer().example(4),
            mva: pctOrNull(),
            baseReduction: pctOrNull(),
            base: money(),
            rate: percent(),
            value: money(),
            fcpBase: moneyOrNull(),
            fcpRate: pctOrNull(),
            fcpValue: moneyOrNull(),
          }),
        ).allow(null),
        simplesCreditRate: pctOrNull(),
        simplesCreditValue: moneyOrNull(),
        relief: obj({ value: money(), reason: Joi.number().integer().example(8), deducted: Joi.boolean() })
          .allow(null)
          .description('ICMS desonerado: vICMSDeson, motDesICMS, indDeduzDeson'),
        retained: named(
          'FiscalIcmsRetainedSt',
          obj({
            base: money().description('vBCSTRet'),
            rate: percent().description('pST: ICMS-ST + FCP-ST the final consumer bears'),
            substituteValue: moneyOrNull().description('vICMSSubstituto'),
            value: money().description('vICMSSTRet'),
            fcpBase: moneyOrNull().description('vBCFCPSTRet'),
            fcpRate: pctOrNull().description('pFCPSTRet'),
            fcpValue: moneyOrNull().description('vFCPSTRet'),
            entryDocumentId: Joi.string()
              .allow(null)
              .example('Xk3w9aQb')
              .description('the entry document the figures came from (null on a devolução: its original)'),
            source: Joi.string(),
          }),
        )
          .allow(null)
          .description('CST 60 / CSOSN 500: the ICMS-ST retained earlier, from the last confirmed entry of the goods with ST'),
      }),
    ),
    difal: named(
      'FiscalDifal',
      obj({
        base: money(),
        fcpBase: money(),
        fcpRate: percent(),
        internalRate: percent(),
        interstateRate: percent(),
        destinationShare: percent(),
        fcpValue: money(),
        destinationValue: money(),
        originValue: money(),
      }),
    ).allow(null),
    ipi: named(
      'FiscalIpi',
      obj({ cst: Joi.string().example('50'), enquadramento: Joi.string().example('999'), base: money(), rate: percent(), value: money() }),
    ).allow(null),
    pis: pisCofins,
    cofins: pisCofins,
    ibsCbs: named(
      'FiscalIbsCbs',
      obj({
        cst: Joi.string().example('000'),
        cClassTrib: Joi.string().example('000001'),
        base: money(),
        ibsUfRate: percent(),
        ibsUfValue: money(),
        ibsMunRate: percent(),
        ibsMunValue: money(),
        ibsValue: money(),
        cbsRate: percent(),
        cbsValue: money(),
      }),
    ).allow(null),
    approximateTaxes: money().description('vTotTrib (Lei 12.741/2012)'),
    total: money(),
    rule: named(
      'FiscalAppliedRule',
      obj({ ruleId: hashid('fiscal-rule').allow(null), description: Joi.string(), ratesSource: Joi.string() }),
    ),
  }),
);

const totalKeys = [
  'vBC',
  'vICMS',
  'vICMSDeson',
  'vFCPUFDest',
  'vICMSUFDest',
  'vICMSUFRemet',
  'vFCP',
  'vBCST',
  'vST',
  'vFCPST',
  'vFCPSTRet',
  'vProd',
  'vFrete',
  'vSeg',
  'vDesc',
  'vII',
  'vIPI',
  'vIPIDevol',
  'vPIS',
  'vCOFINS',
  'vOutro',
  'vNF',
  'vTotTrib',
];

export const FiscalDocument = named(
  'ComputedFiscalDocument',
  obj({
    model: Joi.number().valid(55, 65),
    operation: oneOf('SALE', 'RETURN', 'TRANSFER', 'BONUS'),
    operationNature: Joi.string().example('Venda de mercadoria'),
    direction: Joi.number().valid(0, 1),
    purpose: Joi.number().valid(1, 2, 3, 4),
    destination: oneOf('INTERNAL', 'INTERSTATE', 'ABROAD'),
    finalConsumer: Joi.boolean(),
    presence: Joi.number().integer().example(1),
    issueDate: date(),
    ruleSetId: Joi.string().example('2026'),
    issuer: named(
      'FiscalIssuer',
      obj({
        filialId: hashid('filial'),
        document: taxDocument(),
        name: Joi.string().example('Comercial Souza Ltda'),
        tradeName: Joi.string().allow(null),
        stateRegistration: Joi.string().allow('').example('110042490114'),
        cnae: Joi.string().allow(null).example('4751201'),
        crt: Joi.number().valid(1, 2, 3),
        industrial: Joi.boolean(),
        taxRegime: oneOf('SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL').optional(),
        address,
        ufCode: Joi.string().allow('').example('35'),
      }),
    ),
    recipient: named(
      'FiscalRecipient',
      obj({
        customerId: hashid('customer').allow(null),
        personType: oneOf('PF', 'PJ', 'FOREIGN'),
        document: taxDocument().allow(null),
        name: Joi.string().allow(null).example('Maria da Silva'),
        ieIndicator: Joi.number().valid(1, 2, 9),
        stateRegistration: Joi.string().allow(null),
        email: Joi.string().allow(null),
        address: address.allow(null),
      }),
    ),
    items: Joi.array().items(item),
    totals: named(
      'FiscalTotals',
      obj({
        ...Object.fromEntries(totalKeys.map((k) => [k, money()])),
        ibsCbs: obj({ base: money(), ibsUf: money(), ibsMun: money(), ibs: money(), cbs: money() }).allow(null),
        vNFTot: moneyOrNull(),
      }),
    ),
    simplesCredit: obj({ rate: percent(), value: money() })
      .allow(null)
      .description('CSOSN 101/201: the ICMS credit the buyer may take (Σ vCredICMSSN at pCredSN, LC 123/2006 art. 23); null when none'),
    statements: Joi.array()
      .items(Joi.string().example('DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL'))
      .description('what the law makes the document say in infCpl (Simples Nacional statements)'),
    warnings: Joi.array().items(Joi.string()),
  }),
);
