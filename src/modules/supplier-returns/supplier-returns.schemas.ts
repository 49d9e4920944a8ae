import { decimal, id, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { SupplierReturnStatus } from './entities/supplier-return.entity';
import type { ReturnRequest } from './postings';
import { SUPPLIER_RETURN_STATUSES } from './supplier-returns.state';

const byDocument = Joi.object({ entryDocumentId: id('entry-document').required() });

export const returnBody = Joi.object({
  reason: Joi.string()
    .trim()
    .min(15)
    .max(255)
    .required()
    .description('why the goods go back (printed in the NF-e, at least 15 characters)'),
  items: Joi.array()
    .items(
      Joi.object({
        entryDocumentItemId: id('entry-document-item').required(),
        quantity: decimal('quantity', { positive: true }).required().description("in the supplier's unit, as invoiced"),
      }),
    )
    .min(1)
    .max(990)
    .required(),
});

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const supplierReturnSchemas = {
  returnable: typedSchema<{ params: { entryDocumentId: number } }>({ params: byDocument }),
  preview: typedSchema<{ body: ReturnRequest & { entryDocumentId: number } }>({
    // No fixed example: the document's (core/openapi/examples.ts) names the demo's entry document and its line where it is seeded.
    body: returnBody.keys({ entryDocumentId: id('entry-document').required() }),
  }),
  issue: typedSchema<{ params: { entryDocumentId: number }; body: ReturnRequest }>({ params: byDocument, body: returnBody }),
  list: typedSchema<{ params: { filialId: number }; query: PageRequest & { status?: SupplierReturnStatus; entryDocumentId?: number } }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({ ...pagination, status: Joi.string().valid(...SUPPLIER_RETURN_STATUSES), entryDocumentId: id('entry-document') }),
  }),
  detail: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('supplier-return').required() }) }),
};
