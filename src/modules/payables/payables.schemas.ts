import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { PayableListQuery } from './payables.service';
import type { PaymentInput } from './payments.service';

/* Each schema with the type of what it validates (core/http/typed-input.ts). */

const byPayable = { params: Joi.object({ id: id('payable').required() }) };

export const payableSchemas = {
  byDocument: typedSchema<{ params: { entryDocumentId: number }; query: PageRequest }>({
    params: Joi.object({ entryDocumentId: id('entry-document').required() }),
    query: Joi.object(pagination),
  }),
  detail: typedSchema<{ params: { id: number } }>(byPayable),
  auditTrail: typedSchema<{ params: { id: number }; query: PageRequest }>({ ...byPayable, query: Joi.object({ ...pagination }) }),
  pay: typedSchema<{ params: { id: number }; body: PaymentInput }>({
    ...byPayable,
    body: Joi.object({
      amount: decimal('amount', { positive: true }).required().description('part of the payable this payment settles'),
      paymentDate: isoDate().required(),
      method: Joi.string().trim().min(1).max(30).required().description("the tenant's payment-method code (e.g. PIX)"),
      interest: decimal('amount', { min: 0 }).allow(null).description('juros, paid on top'),
      fine: decimal('amount', { min: 0 }).allow(null).description('multa, paid on top'),
      discount: decimal('amount', { min: 0 }).allow(null).description('desconto, granted off the money paid'),
      note: Joi.string().trim().max(500).allow(null, ''),
    }),
  }),
  reversePayment: typedSchema<{ params: { paymentId: number }; body: { reason: string } }>({
    params: Joi.object({ paymentId: id('payable-payment').required() }),
    body: Joi.object({ reason: Joi.string().trim().min(3).max(255).required() }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: PayableListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid('OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'),
      dueFrom: isoDate(),
      dueTo: isoDate(),
      supplier: Joi.string().trim().min(1).max(100),
      overdue: Joi.boolean(),
      entryDocumentId: id('entry-document'),
      source: Joi.string().valid('ENTRY_DOCUMENT', 'CTE').description('ENTRY_DOCUMENT installments or CTE freight'),
      sort: Joi.string().valid('dueDate', '-dueDate').default('dueDate'),
    }),
  }),
};
