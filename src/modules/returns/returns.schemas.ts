import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { ReturnInput } from './returns.service';
import type { ImportedReturnInput } from './imported-return.service';
import { NFE_XML_EXAMPLE } from '../../core/openapi/example-documents';
import { ACCESS_KEY_PATTERN } from '../fiscal-xml';

const filialParams = Joi.object({ filialId: id('filial').required() });

type ByFilial = { params: { filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const returnSchemas = {
  returnableItems: typedSchema<ByFilial & { query: PageRequest & { customerId: number } }>({
    params: filialParams,
    query: Joi.object({ customerId: id('customer').required(), ...pagination }),
  }),
  register: typedSchema<ByFilial & { body: ReturnInput }>({
    params: filialParams,
    body: Joi.object({
      customerId: id('customer').required(),
      reason: Joi.string().trim().min(3).max(500).required(),
      refundMethod: Joi.string()
        .trim()
        .uppercase()
        .pattern(/^[A-Z0-9_]{1,30}$/)
        .required(),
      items: Joi.array()
        .items(
          Joi.object({
            salesOrderItemId: id('sales-order-item').required(),
            quantity: decimal('quantity', { positive: true }).required(),
            restock: Joi.boolean().required(),
          }),
        )
        .min(1)
        .max(500)
        .required(),
    }),
  }),
  list: typedSchema<ByFilial & { query: PageRequest & { customerId?: number; from?: string; to?: string } }>({
    params: filialParams,
    query: Joi.object({ ...pagination, customerId: id('customer'), from: isoDate(), to: isoDate() }),
  }),
  detail: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('return').required() }) }),
  importNfe: typedSchema<ByFilial & { body: ImportedReturnInput }>({
    params: filialParams,
    body: Joi.object({
      xml: Joi.string().min(1).max(5_000_000).description("The customer's NF-e de devolução (finNFe 4, refNFe to our sale), as received"),
      accessKey: Joi.string()
        .trim()
        .uppercase()
        .pattern(ACCESS_KEY_PATTERN)
        .message('{{#label}} must be the 44-character access key')
        .description('Or: the key of an inbound NF-e of the filial already downloaded'),
      refundMethod: Joi.string()
        .trim()
        .uppercase()
        .pattern(/^[A-Z0-9_]{1,30}$/)
        .required(),
      reason: Joi.string().trim().min(3).max(500).allow(null),
      restock: Joi.boolean().default(true),
    })
      .xor('xml', 'accessKey')
      .example({ xml: NFE_XML_EXAMPLE, refundMethod: 'STORE_CREDIT', reason: 'Mercadoria em desacordo com o pedido', restock: true }),
  }),
  issueDocument: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('return').required() }) }),
};
