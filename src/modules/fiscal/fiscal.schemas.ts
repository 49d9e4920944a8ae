import { normalizeDocument } from '../../core/br-documents';
import { fastDate, fastDecimal, fastId, isPlainObject } from '../../core/http/fast-body';
import { decimal, document, id, isoDate, Joi, pagination, version } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { ListQuery } from '../catalog';
import type { ApproximateTaxUpload, RuleInput, StAgreementInput, TaxGroupInput, UfRateInput } from './master-data.service';
import type { FiscalItemInput } from './fiscal-document';
import type { PreviewInput } from './preview.service';

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
const listQuery = Joi.object({ ...pagination, search: Joi.string().trim().max(100), active: Joi.boolean() });
const operation = Joi.string().valid('SALE', 'RETURN', 'TRANSFER', 'BONUS');
const destination = Joi.string().valid('INTERNAL', 'INTERSTATE', 'ABROAD');
const pct = () => decimal('percent', { min: 0, max: 100 });
const cst2 = Joi.string()
  .pattern(/^\d{2}$/)
  .message('{{#label}} must be 2 digits');

const taxGroupFields = {
  code: Joi.string()
    .trim()
    .uppercase()
    .pattern(/^[A-Z0-9_-]{1,20}$/)
    .example('HORTIFRUTI'),
  name: Joi.string().trim().min(1).max(120).example('Hortifrúti in natura (isento)'),
  active: Joi.boolean(),
};

const ruleFields = {
  taxGroupId: id('tax-group'),
  operation,
  destination,
  contributor: Joi.boolean().description('the buyer is an ICMS contributor (indIEDest 1)'),
  validFrom: isoDate(),
  validTo: isoDate().allow(null),
  cfop: Joi.string()
    .pattern(/^[1-35-7][0-9]{3}$/)
    .message('{{#label}} must be a CFOP (4 digits)')
    .example('5102'),
  operationNature: Joi.string().trim().max(60).allow(null),
  icmsCst: Joi.string().valid('00', '10', '20', '30', '40', '41', '50', '60', '70').allow(null).example('00'),
  csosn: Joi.string().valid('101', '102', '103', '201', '202', '203', '300', '400', '500').allow(null).example('102'),
  icmsBaseReduction: pct().allow(null),
  icmsRate: pct().allow(null),
  stMode: Joi.string()
    .valid('NONE', 'MVA', 'ALREADY_TAXED', 'AGREEMENT')
    .description(
      'MVA: ST with the rule’s MVA; AGREEMENT: ST only where an agreement of the pair of states covers the goods (/fiscal/st-agreements), with its MVA; ALREADY_TAXED (CST 60 / CSOSN 500): the goods’ ST was retained upstream and the line declares it (vBCSTRet, pST, vICMSSubstituto, vICMSSTRet, FCP-ST retido) from the last confirmed entry of the product at the filial that paid ST — none → 422 naming items[i].retainedSt',
    ),
  stMva: decimal('percent', { min: 0, max: 999 }).allow(null),
  stBaseReduction: pct().allow(null),
  pisCst: cst2.allow(null),
  pisRate: pct().allow(null),
  cofinsCst: cst2.allow(null),
  cofinsRate: pct().allow(null),
  ipiCst: cst2.allow(null),
  ipiRate: pct().allow(null),
  ipiEnquadramento: Joi.string()
    .pattern(/^\d{3}$/)
    .allow(null),
  ibsCbsCst: Joi.string()
    .pattern(/^\d{3}$/)
    .allow(null),
  ibsCbsClass: Joi.string()
    .pattern(/^\d{6}$/)
    .allow(null),
  benefitCode: Joi.string()
    .pattern(/^([!-ÿ]{8}|[!-ÿ]{10}|SEM CBENEF)$/)
    .message('{{#label}} must be the UF’s cBenef (8 or 10 characters) or SEM CBENEF')
    .allow(null)
    .description('cBenef of the items (the UF’s benefit code table)'),
  reliefReason: Joi.number()
    .strict()
    .valid(1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 90)
    .allow(null)
    .description('motDesICMS of an ICMS desonerado (CST 20: 3, 9, 12; CST 40/41/50: 1, 3–11, 16, 90)'),
  reliefDeducted: Joi.boolean().description('indDeduzDeson: the relieved ICMS is taken off the item’s value and vNF'),
  active: Joi.boolean(),
};
const ufField = Joi.string()
  .trim()
  .uppercase()
  .pattern(/^[A-Z]{2}$/);
const agreementFields = {
  originUf: ufField.description('the seller’s UF'),
  destinationUf: ufField.description('the buyer’s UF (the same UF: the UF’s own internal ST)'),
  ncmPrefix: Joi.string()
    .pattern(/^\d{2,8}$/)
    .message('{{#label}} must be 2 to 8 digits of an NCM')
    .description('the NCM or its first digits; the longest prefix that matches wins'),
  cest: Joi.string()
    .pattern(/^\d{7}$/)
    .message('{{#label}} must be the 7-digit CEST')
    .allow(null)
    .description('only goods of this CEST (a CEST match wins over an NCM-only one); null: every CEST of the NCM'),
  mva: decimal('percent', { min: 0, max: 999 }).description(
    'the original MVA of the agreement (adjusted between states by the rates’ gap)',
  ),
  destinationInternalRate: pct().allow(null).description('the destination’s internal rate for these goods when it is not the UF table’s'),
  validFrom: isoDate(),
  validTo: isoDate().allow(null),
  source: Joi.string()
    .trim()
    .min(3)
    .max(200)
    .example('Protocolo ICMS 41/2008')
    .description('the act: "Protocolo ICMS 11/1991", "Convênio ICMS 142/2018 Anexo III"…'),
  active: Joi.boolean(),
};
const agreementById = Joi.object({ id: id('st-agreement').required() });
const required = <K extends keyof typeof ruleFields>(...keys: K[]) => Object.fromEntries(keys.map((k) => [k, ruleFields[k].required()]));
const byId = (type: 'tax-group' | 'fiscal-rule') => Joi.object({ id: id(type).required() });

const item = Joi.object({
  productId: id('product').required(),
  quantity: decimal('quantity', { positive: true }).required(),
  unitPrice: decimal('price', { min: 0 }).required(),
  discount: decimal('amount', { min: 0 }),
});

/*
 * The preview body as clients send it for a free document — items, the header fields, no order or
 * fulfilment — read by hand (RouteSchema.fastBody): what joi answers for it (ids decoded, decimals as
 * Dec), or undefined for any other body or any value joi might convert or refuse, which joi then
 * validates with its usual errors. The suite checks every answer against joi's (core/http/validate.ts).
 */
const OPERATIONS: ReadonlySet<unknown> = new Set(['SALE', 'RETURN', 'TRANSFER', 'BONUS']);
const PRESENCES: ReadonlySet<unknown> = new Set([0, 1, 2, 3, 4, 5, 9]);
const ITEM_KEYS: ReadonlySet<string> = new Set(['productId', 'quantity', 'unitPrice', 'discount']);
const quantityOf = fastDecimal('quantity', { positive: true });
const priceOf = fastDecimal('price', { min: 0 });
const amountOf = fastDecimal('amount', { min: 0 });

function fastItems(items: unknown): FiscalItemInput[] | undefined {
  if (!Array.isArray(items) || items.length < 1 || items.length > 990) return undefined;
  const lines: FiscalItemInput[] = [];
  for (const item of items) {
    if (!isPlainObject(item)) return undefined;
    for (const key in item) if (!ITEM_KEYS.has(key)) return undefined;
    const productId = fastId('product', item.productId);
    const quantity = quantityOf(item.quantity);
    const unitPrice = priceOf(item.unitPrice);
    if (productId === undefined || !quantity || !unitPrice) return undefined;
    const line: FiscalItemInput = { productId, quantity, unitPrice };
    if ('discount' in item) {
      const discount = amountOf(item.discount);
      if (!discount) return undefined;
      line.discount = discount;
    }
    lines.push(line);
  }
  return lines;
}

type FieldReader = (value: unknown) => unknown;
const optionalId =
  (type: 'filial' | 'customer', nullable: boolean): FieldReader =>
  (v) =>
    v === null && nullable ? null : fastId(type, v);
const consumerDocumentOf: FieldReader = (v) => {
  if (v === null) return null;
  // Untrimmed text only: joi trims first.
  return typeof v === 'string' && v.trim() === v ? (normalizeDocument(v) ?? undefined) : undefined;
};
/** The header fields of a free preview and how each is read (the items apart). */
const PREVIEW_FIELDS: Record<string, FieldReader> = {
  filialId: optionalId('filial', false),
  customerId: optionalId('customer', true),
  consumerDocument: consumerDocumentOf,
  operation: (v) => (OPERATIONS.has(v) ? v : undefined),
  model: (v) => (v === 55 || v === 65 ? v : undefined),
  date: fastDate,
  freight: amountOf,
  insurance: amountOf,
  discount: amountOf,
  otherExpenses: amountOf,
  presence: (v) => (PRESENCES.has(v) ? v : undefined),
  finalConsumer: (v) => (typeof v === 'boolean' ? v : undefined),
};

export function fastPreviewBody(input: unknown): PreviewInput | undefined {
  if (!isPlainObject(input) || typeof input.date !== 'string') return undefined;
  const body: Record<string, unknown> = {};
  for (const key in input) {
    if (key === 'items') {
      const items = fastItems(input.items);
      if (!items) return undefined;
      body.items = items;
      continue;
    }
    const read = PREVIEW_FIELDS[key];
    if (!read || !Object.prototype.hasOwnProperty.call(PREVIEW_FIELDS, key)) return undefined;
    const value = read(input[key]);
    if (value === undefined) return undefined;
    body[key] = value;
  }
  return body.items ? (body as unknown as PreviewInput) : undefined;
}

export const fiscalSchemas = {
  listTaxGroups: typedSchema<{ query: ListQuery }>({ query: listQuery }),
  getTaxGroup: typedSchema<{ params: { id: number } }>({ params: byId('tax-group') }),
  createTaxGroup: typedSchema<{ body: TaxGroupInput }>({
    body: Joi.object({ ...taxGroupFields, code: taxGroupFields.code.required(), name: taxGroupFields.name.required() }),
  }),
  updateTaxGroup: typedSchema<{ params: { id: number }; body: TaxGroupInput & { version: number } }>({
    params: byId('tax-group'),
    body: Joi.object({ ...taxGroupFields, version: version() }).min(2),
  }),
  listRules: typedSchema<{ query: ListQuery }>({ query: listQuery }),
  getRule: typedSchema<{ params: { id: number } }>({ params: byId('fiscal-rule') }),
  createRule: typedSchema<{ body: RuleInput }>({
    body: Joi.object({ ...ruleFields, ...required('taxGroupId', 'operation', 'destination', 'contributor', 'validFrom', 'cfop') }),
  }),
  updateRule: typedSchema<{ params: { id: number }; body: RuleInput & { version: number } }>({
    params: byId('fiscal-rule'),
    body: Joi.object({ ...ruleFields, version: version() }).min(2),
  }),
  listStAgreements: typedSchema<{ query: ListQuery }>({ query: listQuery }),
  getStAgreement: typedSchema<{ params: { id: number } }>({ params: agreementById }),
  createStAgreement: typedSchema<{ body: StAgreementInput }>({
    body: Joi.object({
      ...agreementFields,
      originUf: agreementFields.originUf.required(),
      destinationUf: agreementFields.destinationUf.required(),
      ncmPrefix: agreementFields.ncmPrefix.required(),
      mva: agreementFields.mva.required(),
      validFrom: agreementFields.validFrom.required(),
      source: agreementFields.source.required(),
    }),
  }),
  updateStAgreement: typedSchema<{ params: { id: number }; body: StAgreementInput & { version: number } }>({
    params: agreementById,
    body: Joi.object({ ...agreementFields, version: version() }).min(2),
  }),
  listUfRates: typedSchema<{ query: { uf?: string } }>({
    query: Joi.object({
      uf: Joi.string()
        .uppercase()
        .pattern(/^[A-Z]{2}$/),
    }),
  }),
  createUfRate: typedSchema<{ body: UfRateInput }>({
    body: Joi.object({
      uf: Joi.string()
        .uppercase()
        .pattern(/^[A-Z]{2}$/)
        .required(),
      taxGroupId: id('tax-group').allow(null),
      validFrom: isoDate().required(),
      validTo: isoDate().allow(null),
      internalRate: pct().required().example(18),
      fcpRate: pct(),
      difalDoubleBase: Joi.boolean(),
      source: Joi.string().trim().min(1).max(200).required().example('RICMS/SP (Decreto 45.490/2000), art. 52'),
      sourceDate: isoDate().required(),
    }),
  }),
  loadApproximateTaxes: typedSchema<{ body: ApproximateTaxUpload; query: { uf?: string } }>({
    query: Joi.object({ uf: Joi.string().uppercase().length(2).description('the UF of a text/csv body (a JSON body says it in uf)') }),
    body: Joi.object({
      uf: Joi.string()
        .uppercase()
        .length(2)
        .required()
        .example('SP')
        .description('the UF whose table it is (with a text/csv body: ?uf=SP)'),
      csv: Joi.string()
        .max(8_000_000)
        .description(
          'the IBPT CSV as published: codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte',
        ),
      tableVersion: Joi.string().trim().min(1).max(20),
      tableKey: Joi.string().trim().max(20).allow(''),
      source: Joi.string().trim().min(1).max(60).example('IBPT'),
      validFrom: isoDate(),
      validTo: isoDate(),
      rows: Joi.array()
        .min(1)
        .max(20000)
        .items(
          Joi.object({
            ncm: Joi.string()
              .pattern(/^\d{8}$/)
              .message('{{#label}} must be 8 digits')
              .required(),
            ex: Joi.string()
              .pattern(/^\d{0,3}$/)
              .allow(''),
            federalNationalRate: pct().required(),
            federalImportedRate: pct().required(),
            stateRate: pct().required(),
            municipalRate: pct().required(),
          }),
        ),
    }).xor('csv', 'rows'),
    example: {
      uf: 'SP',
      csv:
        'codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte\r\n' +
        '09012100;;0;Cafe torrado, nao descafeinado;4.20;6.50;12.00;0.00;01/01/2026;31/12/2027;B7C8D9;26.2.B;IBPT\r\n',
    },
  }),
  preview: typedSchema<{ body: PreviewInput }>({
    body: Joi.object({
      salesOrderId: id('sales-order'),
      fulfillmentId: id('fulfillment'),
      filialId: id('filial'),
      customerId: id('customer').allow(null),
      consumerDocument: document().allow(null),
      operation,
      model: Joi.number().strict().valid(55, 65),
      date: isoDate().required().description('the issue date the rules are chosen by'),
      items: Joi.array().min(1).max(990).items(item),
      freight: decimal('amount', { min: 0 }),
      insurance: decimal('amount', { min: 0 }),
      discount: decimal('amount', { min: 0 }),
      otherExpenses: decimal('amount', { min: 0 }),
      presence: Joi.number().strict().valid(0, 1, 2, 3, 4, 5, 9),
      finalConsumer: Joi.boolean(),
    })
      .oxor('salesOrderId', 'fulfillmentId', 'items')
      .or('salesOrderId', 'fulfillmentId', 'items')
      .oxor('salesOrderId', 'filialId')
      .oxor('fulfillmentId', 'filialId'),
    fastBody: fastPreviewBody,
  }),
};
