import { decimal, document, id, isoDate, Joi, pagination, version } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { CreateOrderInput, OpenItemsQuery, OrderListQuery, PatchOrderInput } from './purchase.types';
import { PURCHASE_ORDER_STATUSES } from './purchase.state';

/*
 * Request schemas. Numbers are exact decimals (number or numeric string) at their column's scale;
 * ids are hashids; dates are real calendar dates. At most 990 lines (what one NF-e can carry).
 */

export const FREIGHT_TERMS = ['CIF', 'FOB', 'THIRD_PARTY', 'NONE'] as const;
export const SORTS = ['-code', 'code', 'expectedDate', '-expectedDate'] as const;

/** Two ids that did not decode (0) are unknown ids, not duplicates of each other. */
const sameLine = (a: { purchaseOrderItemId?: number }, b: { purchaseOrderItemId?: number }) =>
  !!a.purchaseOrderItemId && a.purchaseOrderItemId === b.purchaseOrderItemId;

const line = {
  productId: id('product').required(),
  supplierProductCode: Joi.string().trim().max(60).allow(null, '').description("the supplier's code of the product (cProd)"),
  quantity: decimal('quantity', { positive: true, max: 999_999_999 }).required().description("in the company's unit"),
  unitPrice: decimal('price', { min: 0, max: 9_999_999_999 }).required(),
  discount: decimal('amount', { min: 0 }).description('line discount (amount)'),
  description: Joi.string().trim().min(1).max(200).description("defaults to the product's name"),
  expectedDate: isoDate().allow(null).description("default: the order's expected date"),
};

const supplier = Joi.object({
  document: document().required(),
  name: Joi.string().trim().min(1).max(150).required(),
  stateRegistration: Joi.string().trim().max(20).allow(null),
  uf: Joi.string()
    .trim()
    .uppercase()
    .pattern(/^[A-Z]{2}$/)
    .allow(null),
}).description('found in the catalog by CNPJ/CPF, or registered');

const header = {
  supplierId: id('supplier'),
  supplier,
  expectedDate: isoDate().allow(null),
  paymentTerms: Joi.object({
    installments: Joi.number().integer().min(1).max(120).required(),
    days: Joi.number()
      .integer()
      .min(0)
      .max(365)
      .required()
      .description('days between installments, the first this many days after the invoice'),
  }).allow(null),
  freightTerms: Joi.string()
    .valid(...FREIGHT_TERMS)
    .allow(null)
    .description('CIF: the supplier pays; FOB: we pay; THIRD_PARTY; NONE'),
  notes: Joi.string().trim().max(1000).allow(null, ''),
};

const byId = Joi.object({ id: id('purchase-order').required() });
const reasonBody = Joi.object({ reason: Joi.string().trim().min(3).max(500).allow(null) });

type ById = { params: { id: number } };
type ByFilial = { params: { filialId: number } };
type ReasonBody = { body: { reason?: string | null } | undefined };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const purchaseSchemas = {
  create: typedSchema<{ body: CreateOrderInput }>({
    body: Joi.object({
      filialId: id('filial').description('default: x-filial-id'),
      ...header,
      items: Joi.array().items(Joi.object(line)).min(1).max(990).required(),
    }).xor('supplierId', 'supplier'),
  }),
  list: typedSchema<ByFilial & { query: OrderListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid(...PURCHASE_ORDER_STATUSES),
      supplierId: id('supplier'),
      supplierDocument: document(),
      productId: id('product').description('orders with a line of this product'),
      expectedFrom: isoDate(),
      expectedTo: isoDate(),
      search: Joi.string()
        .trim()
        .max(100)
        .allow('')
        .description("numeric: the order's code, or (4+ digits) the start of the supplier's CNPJ/CPF; text: supplier name"),
      sort: Joi.string()
        .valid(...SORTS)
        .default('-code'),
    }),
  }),
  openItems: typedSchema<ByFilial & { query: OpenItemsQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      supplierDocument: document(),
      productId: id('product'),
    }),
  }),
  byId: typedSchema<ById>({ params: byId }),
  receipts: typedSchema<ById & { query: PageRequest }>({ params: byId, query: Joi.object({ ...pagination }) }),
  auditTrail: typedSchema<ById & { query: PageRequest }>({ params: byId, query: Joi.object({ ...pagination }) }),
  update: typedSchema<ById & { body: PatchOrderInput }>({
    params: byId,
    body: Joi.object({
      version: version(),
      ...header,
      items: Joi.array()
        .items(Joi.object({ purchaseOrderItemId: id('purchase-order-item').description('keep this line (omit for a new one)'), ...line }))
        .min(1)
        .max(990)
        .unique(sameLine)
        .description('the full new list of lines: lines left out are removed'),
    })
      .oxor('supplierId', 'supplier')
      .min(2),
  }),
  cancel: typedSchema<ById & ReasonBody>({ params: byId, body: reasonBody }),
  close: typedSchema<ById & ReasonBody>({ params: byId, body: reasonBody }),
};
