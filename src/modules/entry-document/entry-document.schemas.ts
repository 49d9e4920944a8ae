import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { decimal, document, id, isoDate, Joi, pagination, version } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { EntryDocumentListQuery, ManualDraftInput } from './entry-document.service';
import type { LineEdit } from './review-lines';
import type { DraftPatch } from './update-draft';
import { NFE_PURPOSES } from './fiscal/fiscal.types';
import { choosableClass, entryCfop } from './fiscal/fiscal.schemas';

/*
 * Request schemas. Numbers are exact decimals (number or numeric string) at their scale; ids are
 * hashids. Limits follow the NF-e layout (990 items, 9-digit numbers, 3-digit series).
 */

const digits = (max: number) =>
  Joi.alternatives()
    .try(
      Joi.string()
        .trim()
        .pattern(new RegExp(`^\\d{1,${max}}$`)),
      Joi.number()
        .integer()
        .min(0)
        .max(10 ** max - 1),
    )
    .custom((v: string | number) => String(v))
    .messages({
      'alternatives.match': `{{#label}} must be up to ${max} digits`,
      'alternatives.types': `{{#label}} must be up to ${max} digits`,
    });

const money = () => decimal('amount', { min: 0 }).allow(null);
const tax = Joi.object({
  cst: Joi.string()
    .trim()
    .pattern(/^\d{2,3}$/)
    .allow(null),
  base: money(),
  rate: decimal('percent', { min: 0, max: 100 }).allow(null),
  value: money(),
  // ICMS of a Simples Nacional supplier (CSOSN 101/201/900): pCredSN and vCredICMSSN.
  snCreditRate: decimal('percent', { min: 0, max: 100 }).allow(null),
  snCreditValue: money(),
  // ICMS-ST: the FCP-ST inside `value` (vBCFCPST, pFCPST, vFCPST), declared again as retained on a resale (CST 60 / CSOSN 500).
  fcpBase: money(),
  fcpRate: decimal('percent', { min: 0, max: 100 }).allow(null),
  fcpValue: money(),
  // ICMS of goods bought with CST 60 / CSOSN 500: the ST retained earlier, as the supplier's document declares it.
  retained: Joi.object({
    base: decimal('amount', { min: 0 }).required(),
    rate: decimal('percent', { min: 0, max: 100 }).allow(null),
    substituteValue: money(),
    value: decimal('amount', { min: 0 }).required(),
    fcpBase: money(),
    fcpRate: decimal('percent', { min: 0, max: 100 }).allow(null),
    fcpValue: money(),
  })
    .allow(null)
    .description('vBCSTRet, pST, vICMSSubstituto, vICMSSTRet, vBCFCPSTRet, pFCPSTRet, vFCPSTRet'),
}).allow(null);

const item = Joi.object({
  productId: id('product').allow(null),
  ignored: Joi.boolean(),
  supplierProductCode: Joi.string().trim().max(60).allow(null, ''),
  description: Joi.string().trim().min(1).max(200).required(),
  ncm: Joi.string()
    .pattern(/^\d{8}$/)
    .allow(null),
  cfop: Joi.string()
    .pattern(/^\d{4}$/)
    .allow(null),
  unit: Joi.string().trim().uppercase().min(1).max(6).required(),
  quantity: decimal('quantity', { min: 0, max: 999_999_999 }).required(),
  unitPrice: decimal('price', { min: 0, max: 9_999_999_999 }).required(),
  discount: money(),
  freight: money(),
  insurance: money(),
  otherExpenses: money(),
  taxes: Joi.object({ icms: tax, icmsSt: tax, ipi: tax, pis: tax, cofins: tax }).allow(null),
  // An import (entry CFOP 3xxx): import duty (vII) and customs expenses (vDespAdu, IOF, AFRMM).
  importDuty: money(),
  customsExpenses: money(),
  conversionFactor: decimal('factor', { positive: true, max: 100_000 }).allow(null),
  declared: Joi.object({
    description: Joi.string().trim().max(200).allow(null),
    unit: Joi.string().trim().max(6).allow(null),
    quantity: decimal('quantity', { min: 0 }).allow(null),
    unitPrice: decimal('price', { min: 0 }).allow(null),
    total: decimal('amount', { min: 0 })
      .allow(null)
      .description('line value as invoiced (vProd); wins within 0.01 of quantity × unit price'),
    ncm: Joi.string()
      .pattern(/^\d{8}$/)
      .allow(null),
    cfop: Joi.string()
      .pattern(/^\d{4}$/)
      .allow(null),
  }).allow(null),
  purchaseOrderItemId: id('purchase-order-item')
    .allow(null)
    .description('the purchase-order line this line receives against (same filial and supplier, order APPROVED or PARTIALLY_RECEIVED)'),
  entryCfop: entryCfop()
    .allow(null)
    .description("inbound CFOP the line is booked with; absent: the company's rules and the defaults decide"),
  operationClass: choosableClass().allow(null).description('absent: derived from the entry CFOP and finNFe'),
});

const installment = Joi.object({
  number: Joi.number().integer().min(1).max(999),
  dueDate: isoDate().required(),
  amount: decimal('amount', { positive: true }).required(),
});

const supplier = Joi.object({
  document: document().required(),
  name: Joi.string().trim().min(1).max(150).required(),
  stateRegistration: Joi.string().trim().max(20).allow(null),
  uf: Joi.string()
    .trim()
    .uppercase()
    .pattern(/^[A-Z]{2}$/)
    .allow(null),
});

const charges = Joi.object({
  freight: money(),
  insurance: money(),
  discount: money(),
  otherExpenses: money(),
  ipi: money(),
  icmsSt: money(),
}).allow(null);

const header = {
  model: Joi.string()
    .pattern(/^\d{2}$/)
    .example('55'),
  series: digits(3),
  number: digits(9),
  issueDate: isoDate(),
  entryDate: isoDate(),
  operationNature: Joi.string().trim().max(60).allow(null),
  notes: Joi.string().trim().max(2000).allow(null, ''),
  supplier,
  supplierId: id('supplier'),
  charges,
  purpose: Joi.string()
    .valid(...NFE_PURPOSES)
    .description('finNFe: 1 normal (default), 2 complementary, 3 adjustment, 4 return, 5 credit note, 6 debit note'),
  referencedKeys: Joi.array()
    .items(Joi.string().pattern(/^[0-9A-Z]{44}$/))
    .max(500)
    .allow(null)
    .description('NFref: access keys of the documents this one refers to'),
};

const draftBody = Joi.object({
  ...header,
  number: header.number.required(),
  issueDate: header.issueDate.required(),
  items: Joi.array().items(item).min(1).max(990).required(),
  installments: Joi.array().items(installment).max(120).allow(null),
}).xor('supplier', 'supplierId');

const byId = { params: Joi.object({ id: id('entry-document').required() }) };

type ById = { params: { id: number } };
/** A manual draft as the client sends it (the NF-e's reform block only comes with an import). */
type DraftBody = { body: Omit<ManualDraftInput, 'reformTaxes'> };

/** A line's review (by id); at least one change. The supplier's declared values are not editable here or anywhere. */
const lineEdit = Joi.object({
  id: id('entry-document-item').required(),
  productId: id('product').allow(null),
  conversionFactor: decimal('factor', { positive: true, max: 100_000 }),
  reviewStatus: Joi.string().valid('MATCHED', 'PENDING', 'IGNORED'),
  saveMapping: Joi.boolean().description('also save (supplier, code) → (product, factor) in the product map'),
  purchaseOrderItemId: item
    .extract('purchaseOrderItemId')
    .description(
      'the purchase-order line this line receives against (same filial and supplier, order APPROVED or PARTIALLY_RECEIVED, same product); null unlinks',
    ),
  entryCfop: item
    .extract('entryCfop')
    .description("inbound CFOP the line is booked with; null: back to the company's rules and the defaults"),
  operationClass: item.extract('operationClass').description('null: back to the class the entry CFOP and finNFe give'),
}).or('productId', 'conversionFactor', 'reviewStatus', 'saveMapping', 'purchaseOrderItemId', 'entryCfop', 'operationClass');

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const entryDocumentSchemas = {
  create: typedSchema<DraftBody>({ body: draftBody }),
  previewManual: typedSchema<DraftBody>({ body: draftBody }),
  list: typedSchema<{ params: { filialId: number }; query: EntryDocumentListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid('DRAFT', 'CONFIRMED', 'CANCELLED'),
      origin: Joi.string().valid('MANUAL', 'NFE_XML', 'NFE_SEFAZ'),
      supplier: Joi.string().trim().min(1).max(100),
      number: Joi.string()
        .trim()
        .pattern(/^\d{1,9}$/),
      accessKey: Joi.string().trim().uppercase().pattern(ACCESS_KEY_PATTERN),
      issueDateFrom: isoDate(),
      issueDateTo: isoDate(),
      entryDateFrom: isoDate(),
      entryDateTo: isoDate(),
      search: Joi.string().trim().min(1).max(100),
      sort: Joi.string().valid('entryDate', '-entryDate', 'issueDate', '-issueDate').default('-entryDate'),
    }),
  }),
  byId: typedSchema<ById>(byId),
  auditHistory: typedSchema<ById & { query: PageRequest }>({
    ...byId,
    query: Joi.object({
      page: pagination.page,
      pageSize: pagination.pageSize,
      cursor: pagination.cursor,
      includeTotal: pagination.includeTotal,
    }),
  }),
  patch: typedSchema<ById & { body: DraftPatch & { version: number } }>({
    ...byId,
    body: Joi.object({
      ...header,
      version: version(),
      items: Joi.array().items(item).min(1).max(990),
      installments: Joi.array().items(installment).max(120).allow(null),
    })
      .oxor('supplier', 'supplierId')
      .min(2),
  }),
  cancel: typedSchema<ById & { body: { reason?: string | null } | undefined }>({
    ...byId,
    body: Joi.object({ reason: Joi.string().trim().max(255).allow(null, '') }),
  }),
  reviewLines: typedSchema<ById & { body: { version: number; lines: LineEdit[] } }>({
    ...byId,
    body: Joi.object({ version: version(), lines: Joi.array().items(lineEdit).min(1).max(990).required() }),
  }),
  applyProductMap: typedSchema<ById & { body: { version: number } }>({ ...byId, body: Joi.object({ version: version() }) }),
};
