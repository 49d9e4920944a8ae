import { decimal, document, id, Joi, pagination, version } from '../../core/http/schema';

const gtin = Joi.string().trim().pattern(/^\d{8}$|^\d{12,14}$/).message('{{#label}} must be a GTIN-8/12/13/14');
const uf = Joi.string().uppercase().pattern(/^[A-Z]{2}$/);
const listQuery = (extra: Record<string, import('joi').Schema> = {}) =>
  Joi.object({ ...pagination, search: Joi.string().trim().max(100), active: Joi.boolean(), ...extra });

const productFields = {
  code: Joi.string().trim().max(30),
  name: Joi.string().trim().min(1).max(200),
  unit: Joi.string().trim().uppercase().max(6),
  gtin: gtin.allow(null),
  ncm: Joi.string().pattern(/^\d{8}$/).allow(null),
  cest: Joi.string().pattern(/^\d{7}$/).allow(null),
  price: decimal('price', { min: 0 }),
  active: Joi.boolean(),
  stockControlled: Joi.boolean(),
};

export const productSchemas = {
  list: { query: listQuery() },
  get: { params: Joi.object({ id: id('product').required() }) },
  create: { body: Joi.object({ ...productFields, name: productFields.name.required(), unit: productFields.unit.required() }) },
  update: { params: Joi.object({ id: id('product').required() }), body: Joi.object({ ...productFields, version: version() }).min(2) },
};

const customerFields = {
  name: Joi.string().trim().min(1).max(150),
  tradeName: Joi.string().trim().max(150).allow(null),
  document: document().allow(null),
  email: Joi.string().email().max(150).allow(null),
  phone: Joi.string().trim().max(20).allow(null),
  active: Joi.boolean(),
};
export const customerSchemas = {
  list: { query: listQuery() },
  get: { params: Joi.object({ id: id('customer').required() }) },
  create: { body: Joi.object({ ...customerFields, name: customerFields.name.required() }) },
  update: { params: Joi.object({ id: id('customer').required() }), body: Joi.object({ ...customerFields, version: version() }).min(2) },
};

const sellerFields = { name: Joi.string().trim().min(1).max(120), alias: Joi.string().trim().max(60).allow(null), active: Joi.boolean() };
export const sellerSchemas = {
  list: { query: listQuery() },
  get: { params: Joi.object({ id: id('seller').required() }) },
  create: { body: Joi.object({ ...sellerFields, name: sellerFields.name.required() }) },
  update: { params: Joi.object({ id: id('seller').required() }), body: Joi.object({ ...sellerFields, version: version() }).min(2) },
};

const supplierFields = {
  document: document(),
  name: Joi.string().trim().min(1).max(150),
  tradeName: Joi.string().trim().max(150).allow(null),
  stateRegistration: Joi.string().trim().max(20).allow(null),
  uf: uf.allow(null),
  active: Joi.boolean(),
};
const { document: _fixedDocument, ...supplierEditable } = supplierFields;
export const supplierSchemas = {
  list: { query: listQuery() },
  get: { params: Joi.object({ id: id('supplier').required() }) },
  create: { body: Joi.object({ ...supplierFields, document: supplierFields.document.required(), name: supplierFields.name.required() }) },
  update: { params: Joi.object({ id: id('supplier').required() }), body: Joi.object({ ...supplierEditable, version: version() }).min(2) },
};

export const paymentMethodSchemas = {
  list: { query: Joi.object({ active: Joi.boolean() }) },
  create: {
    body: Joi.object({
      code: Joi.string().trim().uppercase().pattern(/^[A-Z0-9_]{1,30}$/).required(),
      name: Joi.string().trim().min(1).max(80).required(),
      kind: Joi.string().valid('CASH', 'CREDIT_CARD', 'DEBIT_CARD', 'PIX', 'BANK_SLIP', 'STORE_CREDIT', 'OTHER').required(),
      givesChange: Joi.boolean(),
      active: Joi.boolean(),
    }),
  },
};

export const stockSchemas = {
  list: {
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({ ...pagination, productId: id('product') }),
  },
};
