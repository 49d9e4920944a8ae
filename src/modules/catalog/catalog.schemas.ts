import { decimal, document, id, Joi, pagination, version } from '../../core/http/schema';
import { type TypedSchema, typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { ListQuery } from './catalog-resource';
import type { PaymentMethodInput } from './payment-method.service';
import type { CustomerInput, SellerInput, SupplierInput } from './party.service';
import type { ProductInput } from './product.service';

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
type ById = { params: { id: number } };

/** The validated inputs of a master-data resource whose create/update body is `I` (its handlers: catalog.controller.ts). */
export type ResourceSchemas<I> = {
  list: TypedSchema<{ query: ListQuery }>;
  get: TypedSchema<ById>;
  create: TypedSchema<{ body: I }>;
  update: TypedSchema<ById & { body: I & { version: number } }>;
};

const gtin = Joi.string()
  .trim()
  .pattern(/^\d{8}$|^\d{12,14}$/)
  .message('{{#label}} must be a GTIN-8/12/13/14');
const uf = Joi.string()
  .uppercase()
  .pattern(/^[A-Z]{2}$/);
const listQuery = (extra: Record<string, import('joi').Schema> = {}) =>
  Joi.object({ ...pagination, search: Joi.string().trim().max(100), active: Joi.boolean(), ...extra });

const productFields = {
  code: Joi.string().trim().max(30),
  name: Joi.string().trim().min(1).max(200),
  unit: Joi.string().trim().uppercase().max(6),
  gtin: gtin.allow(null, 'SEM GTIN'),
  ncm: Joi.string()
    .pattern(/^\d{8}$/)
    .message('{{#label}} must be 8 digits')
    .allow(null),
  cest: Joi.string()
    .pattern(/^\d{7}$/)
    .message('{{#label}} must be 7 digits')
    .allow(null),
  price: decimal('price', { min: 0 }),
  active: Joi.boolean(),
  stockControlled: Joi.boolean(),
  origin: Joi.number().integer().min(0).max(8).description('orig: 0 national … 1/2/3/8 imported (4 % interstate)'),
  taxableUnit: Joi.string().trim().uppercase().max(6).allow(null).description('uTrib; null → the commercial unit'),
  taxableFactor: decimal('factor', { min: 0.000001 }).description('taxable units per commercial unit'),
  taxGroupId: id('tax-group').allow(null).description('the company tax group whose fiscal rules apply'),
};

export const productSchemas = {
  list: typedSchema<{ query: ListQuery }>({ query: listQuery() }),
  get: typedSchema<ById>({ params: Joi.object({ id: id('product').required() }) }),
  create: typedSchema<{ body: ProductInput }>({
    body: Joi.object({ ...productFields, name: productFields.name.required(), unit: productFields.unit.required() }),
  }),
  update: typedSchema<ById & { body: ProductInput & { version: number } }>({
    params: Joi.object({ id: id('product').required() }),
    body: Joi.object({ ...productFields, version: version() }).min(2),
  }),
} satisfies ResourceSchemas<ProductInput>;

export const fiscalAddress = Joi.object({
  street: Joi.string().trim().min(1).max(60).required(),
  number: Joi.string().trim().min(1).max(60).required(),
  complement: Joi.string().trim().max(60).allow(null),
  district: Joi.string().trim().min(1).max(60).required(),
  municipalityCode: Joi.string()
    .pattern(/^\d{7}$/)
    .message('{{#label}} must be the 7-digit IBGE code')
    .required(),
  municipalityName: Joi.string().trim().min(1).max(60).required(),
  uf: uf.required(),
  postalCode: Joi.string()
    .pattern(/^\d{8}$/)
    .allow(null),
  countryCode: Joi.string().pattern(/^\d{4}$/),
  countryName: Joi.string().trim().max(60),
});

const customerFields = {
  name: Joi.string().trim().min(1).max(150).example('Maria da Silva'),
  tradeName: Joi.string().trim().max(150).allow(null),
  document: document().allow(null),
  email: Joi.string().email().max(150).allow(null),
  phone: Joi.string().trim().max(20).allow(null),
  active: Joi.boolean(),
  personType: Joi.string().valid('PF', 'PJ', 'FOREIGN').allow(null),
  ieIndicator: Joi.number().strict().valid(1, 2, 9).description('indIEDest: 1 contributor, 2 exempt contributor, 9 non-contributor'),
  stateRegistration: Joi.string().trim().max(18).allow(null).description('IE, checked against the address UF'),
  finalConsumer: Joi.boolean()
    .allow(null)
    .description(
      'indFinal of its documents: true a final consumer (a contributor buying for its own use or consumption), false resale; null: from the IE (ieIndicator 1 → false, else true)',
    ),
  address: fiscalAddress.allow(null),
};
export const customerSchemas = {
  list: typedSchema<{ query: ListQuery }>({ query: listQuery() }),
  get: typedSchema<ById>({ params: Joi.object({ id: id('customer').required() }) }),
  create: typedSchema<{ body: CustomerInput }>({ body: Joi.object({ ...customerFields, name: customerFields.name.required() }) }),
  update: typedSchema<ById & { body: CustomerInput & { version: number } }>({
    params: Joi.object({ id: id('customer').required() }),
    body: Joi.object({ ...customerFields, version: version() }).min(2),
  }),
} satisfies ResourceSchemas<CustomerInput>;

const sellerFields = {
  name: Joi.string().trim().min(1).max(120).example('Ana Souza'),
  alias: Joi.string().trim().max(60).allow(null),
  active: Joi.boolean(),
};
export const sellerSchemas = {
  list: typedSchema<{ query: ListQuery }>({ query: listQuery() }),
  get: typedSchema<ById>({ params: Joi.object({ id: id('seller').required() }) }),
  create: typedSchema<{ body: SellerInput }>({ body: Joi.object({ ...sellerFields, name: sellerFields.name.required() }) }),
  update: typedSchema<ById & { body: SellerInput & { version: number } }>({
    params: Joi.object({ id: id('seller').required() }),
    body: Joi.object({ ...sellerFields, version: version() }).min(2),
  }),
} satisfies ResourceSchemas<SellerInput>;

const supplierFields = {
  document: document().example('27865413000195'),
  name: Joi.string().trim().min(1).max(150).example('Cerealista Grão de Ouro Ltda'),
  tradeName: Joi.string().trim().max(150).allow(null),
  stateRegistration: Joi.string().trim().max(20).allow(null),
  uf: uf.allow(null),
  active: Joi.boolean(),
};
const { document: _fixedDocument, ...supplierEditable } = supplierFields;
export const supplierSchemas = {
  list: typedSchema<{ query: ListQuery }>({ query: listQuery() }),
  get: typedSchema<ById>({ params: Joi.object({ id: id('supplier').required() }) }),
  create: typedSchema<{ body: SupplierInput }>({
    body: Joi.object({ ...supplierFields, document: supplierFields.document.required(), name: supplierFields.name.required() }),
  }),
  update: typedSchema<ById & { body: SupplierInput & { version: number } }>({
    params: Joi.object({ id: id('supplier').required() }),
    body: Joi.object({ ...supplierEditable, version: version() }).min(2),
  }),
} satisfies ResourceSchemas<SupplierInput>;

export const paymentMethodSchemas = {
  list: typedSchema<{ query: { active?: boolean } }>({ query: Joi.object({ active: Joi.boolean() }) }),
  create: typedSchema<{ body: PaymentMethodInput }>({
    body: Joi.object({
      code: Joi.string()
        .trim()
        .uppercase()
        .pattern(/^[A-Z0-9_]{1,30}$/)
        .required()
        .example('VALE_ALIMENTACAO'),
      name: Joi.string().trim().min(1).max(80).required().example('Vale-alimentação'),
      kind: Joi.string()
        .valid('CASH', 'CREDIT_CARD', 'DEBIT_CARD', 'PIX', 'BANK_SLIP', 'STORE_CREDIT', 'OTHER')
        .required()
        .example('OTHER'),
      givesChange: Joi.boolean(),
      active: Joi.boolean(),
      settlement: Joi.string()
        .valid('AT_ONCE', 'ACQUIRER', 'ON_CREDIT')
        .description('how its sales are received; default by kind (cards ACQUIRER, boleto ON_CREDIT, others AT_ONCE)'),
      settlementDays: Joi.number()
        .integer()
        .min(0)
        .max(720)
        .description('days to the due date (acquirer settlement D+n, a prazo term); default by kind'),
      feePercent: decimal('percent', { min: 0, max: 100 }).description("the acquirer's fee, percent of the payment (ACQUIRER only)"),
    }),
  }),
};

export const stockSchemas = {
  list: typedSchema<{ params: { filialId: number }; query: PageRequest & { productId?: number } }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({ ...pagination, productId: id('product') }),
  }),
};
