import { Joi } from '../../core/http/schema';
import { date, hashid, money, named, obj, oneOf, Pagination, taxDocument, timestamp } from '../../core/http/response-schema';
import { settlementMoneyKeys, settlementStatus, settlementTotalsSchema, settlementTrailKeys } from '../open-items';

/** Response bodies of the accounts-payable routes (payables.mapper.ts). */
const status = oneOf('OPEN', 'PARTIALLY_PAID', 'PAID', 'CANCELLED');

const payableKeys = {
  id: hashid('payable'),
  filialId: hashid('filial'),
  entryDocumentId: hashid('entry-document').allow(null),
  source: oneOf('ENTRY_DOCUMENT', 'CTE').description('an entry document, or a CT-e (freight, the carrier as supplier)'),
  cteId: hashid('cte').allow(null),
  supplier: obj({ id: hashid('supplier'), document: taxDocument(), name: Joi.string().example('Distribuidora Santa Clara Ltda') }),
  documentNumber: Joi.string().example('18342'),
  installmentNumber: Joi.number().integer().example(1),
  issueDate: date(),
  dueDate: date(),
  amount: money(),
  paidAmount: money(),
  openAmount: money().description('0 when CANCELLED'),
  status,
  overdue: Joi.boolean().description('open and due before today'),
  version: Joi.number().integer().example(1),
  cancelledAt: timestamp().allow(null),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const Payable = named('Payable', obj(payableKeys));

export const PayablePayment = named(
  'PayablePayment',
  obj({
    id: hashid('payable-payment'),
    payableId: hashid('payable'),
    status: settlementStatus(),
    paymentDate: date(),
    ...settlementMoneyKeys(),
    ...settlementTrailKeys({ note: 'Pago via PIX, comprovante 8841', reversalReason: 'Pagamento em duplicidade' }),
  }),
);

export const PayableDetail = named(
  'PayableDetail',
  obj({
    ...payableKeys,
    paymentTotals: settlementTotalsSchema().description('of the ACTIVE payments'),
    payments: Joi.array().items(PayablePayment).description('reversed ones included'),
  }),
);

export const PaymentResult = named('PayablePaymentResult', obj({ payment: PayablePayment, payable: PayableDetail }));

export const PayablePage = named('PayablePage', obj({ data: Joi.array().items(Payable), pagination: Pagination }));

const aging = () => obj({ count: Joi.number().integer().example(4), openAmount: money() });
const byStatus = () => obj({ count: Joi.number().integer().example(12), amount: money(), paidAmount: money() });

export const PayableList = named(
  'PayableList',
  obj({
    data: Joi.array().items(Payable),
    pagination: Pagination,
    summary: obj({
      count: Joi.number().integer().example(57),
      amount: money(),
      paidAmount: money(),
      openAmount: money(),
      overdueCount: Joi.number().integer().example(3),
      overdueAmount: money(),
      byStatus: obj({ OPEN: byStatus(), PARTIALLY_PAID: byStatus(), PAID: byStatus(), CANCELLED: byStatus() }),
      aging: obj({
        dueIn0To7Days: aging(),
        dueIn8To30Days: aging(),
        dueIn31PlusDays: aging(),
        overdue1To30Days: aging(),
        overdue31To60Days: aging(),
        overdue61PlusDays: aging(),
      }),
    }).description('over every payable the filters select, not just this page'),
  }),
);
