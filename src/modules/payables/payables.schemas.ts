import { id, isoDate, Joi, pagination } from '../../core/http/schema';

export const payableSchemas = {
  byDocument: { params: Joi.object({ entryDocumentId: id('entry-document').required() }), query: Joi.object(pagination) },
  list: {
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid('OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'),
      dueFrom: isoDate(),
      dueTo: isoDate(),
      supplier: Joi.string().trim().min(1).max(100),
      overdue: Joi.boolean(),
      entryDocumentId: id('entry-document'),
      sort: Joi.string().valid('dueDate', '-dueDate').default('dueDate'),
    }),
  },
};
