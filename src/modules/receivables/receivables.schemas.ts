import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { ReceiptInput } from './receipts.service';
import type { ReceivableListQuery } from './receivables.service';
import type { ReceivableStatus } from './entities/receivable.entity';

/* Each schema with the type of what it validates (core/http/typed-input.ts). */

const byReceivable = { params: Joi.object({ id: id('receivable').required() }) };
const filialParams = Joi.object({ filialId: id('filial').required() });
const status = Joi.string().valid('OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED');

const listFilters = {
  status,
  dueFrom: isoDate(),
  dueTo: isoDate(),
  customerId: id('customer'),
  debtorType: Joi.string().valid('CUSTOMER', 'ACQUIRER').description("the customer's, or a card acquirer's"),
  origin: Joi.string().valid('FULFILLMENT', 'FISCAL_DOCUMENT', 'QUICK_SALE'),
  salesOrderId: id('sales-order'),
  overdue: Joi.boolean(),
  nsu: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9]{1,40}$/)
    .description("a card payment's NSU: the acquirer's receivable an acquirer statement line settles"),
  sort: Joi.string().valid('dueDate', '-dueDate').default('dueDate'),
};

const exactSummary = Joi.boolean()
  .default(false)
  .description(
    'true: the summary counts every receivable the filters select, however many (its cost grows with them); false: at most the first 1,000 of the list (10,000 of a statement; summary.capped says when there are more)',
  );

export const receivableSchemas = {
  detail: typedSchema<{ params: { id: number } }>(byReceivable),
  receive: typedSchema<{ params: { id: number }; body: ReceiptInput }>({
    ...byReceivable,
    body: Joi.object({
      amount: decimal('amount', { positive: true }).required().description('part of the receivable this receipt settles'),
      receiptDate: isoDate().required(),
      method: Joi.string().trim().min(1).max(30).required().description("the tenant's payment-method code (e.g. PIX)"),
      interest: decimal('amount', { min: 0 }).allow(null).description('juros, received on top'),
      fine: decimal('amount', { min: 0 }).allow(null).description('multa, received on top'),
      discount: decimal('amount', { min: 0 }).allow(null).description('desconto, granted off the money received'),
      note: Joi.string().trim().max(500).allow(null, ''),
    }),
  }),
  reverseReceipt: typedSchema<{ params: { receiptId: number }; body: { reason: string } }>({
    params: Joi.object({ receiptId: id('receivable-receipt').required() }),
    body: Joi.object({ reason: Joi.string().trim().min(3).max(255).required() }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: ReceivableListQuery }>({
    params: filialParams,
    query: Joi.object({ ...pagination, ...listFilters, exactSummary }),
  }),
  exportCsv: typedSchema<{ params: { filialId: number }; query: Omit<ReceivableListQuery, keyof PageRequest> }>({
    params: filialParams,
    query: Joi.object(listFilters),
  }),
  statement: typedSchema<{
    params: { filialId: number };
    query: PageRequest & { customerId: number; dueFrom?: string; dueTo?: string; status?: ReceivableStatus; exactSummary?: boolean };
  }>({
    params: filialParams,
    query: Joi.object({ ...pagination, customerId: id('customer').required(), dueFrom: isoDate(), dueTo: isoDate(), status, exactSummary }),
  }),
  audit: typedSchema<{ params: { id: number } }>(byReceivable),
};
