import { Joi } from '../../core/http/schema';
import { date, hashid, money, named, obj, oneOf, Pagination, percent, taxDocument, timestamp } from '../../core/http/response-schema';
import { settlementMoneyKeys, settlementStatus, settlementTotalsSchema, settlementTrailKeys } from '../open-items';

/** Response bodies of the receivables routes (receivables.mapper.ts). */
const status = oneOf('OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED');

const receivableKeys = {
  id: hashid('receivable'),
  filialId: hashid('filial'),
  debtorType: oneOf('CUSTOMER', 'ACQUIRER').description('the customer owes it, or a card acquirer settles it'),
  customerId: hashid('customer').allow(null).description("the sale's customer (also on an acquirer's receivable)"),
  paymentMethod: Joi.string().allow(null).example('CARTAO_CREDITO').description("the payment method (null: the order's payment terms)"),
  origin: oneOf('FULFILLMENT', 'FISCAL_DOCUMENT', 'QUICK_SALE'),
  salesOrderId: hashid('sales-order'),
  salesOrderCode: Joi.number().integer().example(1042),
  fulfillmentId: hashid('fulfillment'),
  accessKey: Joi.string()
    .allow(null)
    .example('35260112345678000195550010000012341000012345')
    .description('the NF-e that bills it, once authorized'),
  installmentNumber: Joi.number().integer().example(1),
  installmentCount: Joi.number().integer().example(3),
  issueDate: date(),
  dueDate: date(),
  grossAmount: money().description("what the sale charged (before an acquirer's fee)"),
  feePercent: percent().example(2.99),
  feeAmount: money(),
  amount: money().description('what the debtor owes: gross − fee'),
  receivedAmount: money().description('sum of the standing receipts'),
  creditedAmount: money().description('reduced by customer returns'),
  openAmount: money().description('amount − received − credited; 0 when CANCELLED'),
  status,
  overdue: Joi.boolean().description('open and due before today (business date)'),
  cancelReason: Joi.string().allow(null).example('NF-e cancelada'),
  cancelledAt: timestamp().allow(null),
  card: obj({
    nsu: Joi.string().allow(null).example('000123456'),
    authorizationCode: Joi.string().allow(null).example('A1B2C3').description('cAut'),
    cardBrand: Joi.string().allow(null).example('01').description('tBand (01 Visa, 02 Mastercard…)'),
    acquirerCnpj: Joi.string().allow(null).example('01027058000191'),
  })
    .allow(null)
    .description("the card payment's identification on an acquirer's receivable (a statement reconciles by NSU)"),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const Receivable = named('Receivable', obj(receivableKeys));

export const ReceivableReceipt = named(
  'ReceivableReceipt',
  obj({
    id: hashid('receivable-receipt'),
    receivableId: hashid('receivable'),
    status: settlementStatus(),
    receiptDate: date(),
    ...settlementMoneyKeys(),
    bankFee: money().description("the bank's fee (tarifa) on a title collected by the bank; 0 otherwise"),
    creditDate: date().allow(null).description('when a bank credits the money (bank returns); null for a receipt in hand'),
    ...settlementTrailKeys({ note: 'Recebido via PIX, comprovante 8841', reversalReason: 'Recebimento em duplicidade' }),
  }),
);

const receiptTotals = settlementTotalsSchema().description('of the ACTIVE receipts');

export const ReceivableDetail = named(
  'ReceivableDetail',
  obj({ ...receivableKeys, receiptTotals, receipts: Joi.array().items(ReceivableReceipt).description('reversed ones included') }),
);

export const ReceiptResult = named('ReceivableReceiptResult', obj({ receipt: ReceivableReceipt, receivable: ReceivableDetail }));

const aging = () => obj({ count: Joi.number().integer().example(4), openAmount: money() });
const byStatus = () => obj({ count: Joi.number().integer().example(12), amount: money(), receivedAmount: money() });

const Summary = named(
  'ReceivablesSummary',
  obj({
    capped: Joi.boolean()
      .example(false)
      .description(
        'true when the filters select more than 1,000 receivables (10,000 for a statement): the figures cover the first ones of the list in its order (lower bounds); exactSummary=true counts them all',
      ),
    count: Joi.number().integer().example(57),
    amount: money(),
    receivedAmount: money(),
    creditedAmount: money(),
    openAmount: money(),
    overdueCount: Joi.number().integer().example(3),
    overdueAmount: money(),
    byStatus: obj({ OPEN: byStatus(), PARTIALLY_RECEIVED: byStatus(), RECEIVED: byStatus(), CANCELLED: byStatus() }),
    aging: obj({
      current: aging(),
      overdue1To30Days: aging(),
      overdue31To60Days: aging(),
      overdue61To90Days: aging(),
      overdueOver90Days: aging(),
    }).description('open amounts by days past due'),
  }).description(
    'over every receivable the filters select (up to the first 1,000, 10,000 for a statement, unless exactSummary=true: see capped), not just this page',
  ),
);

export const ReceivableList = named(
  'ReceivableList',
  obj({ data: Joi.array().items(Receivable), pagination: Pagination, summary: Summary }),
);

export const CustomerCredit = named(
  'CustomerCredit',
  obj({
    id: hashid('customer-credit'),
    kind: oneOf('CREDIT', 'REFUND').description('store credit, or a refund owed by `method`'),
    method: Joi.string().example('DINHEIRO'),
    amount: money(),
    returnId: hashid('return'),
    salesOrderId: hashid('sales-order'),
    createdAt: timestamp(),
  }),
);

export const CustomerStatement = named(
  'ReceivableCustomerStatement',
  obj({
    customer: obj({ id: hashid('customer'), name: Joi.string().example('Maria da Silva'), document: taxDocument().allow(null) }),
    data: Joi.array().items(ReceivableDetail).description("the customer's receivables (acquirers' excluded), with their receipts"),
    pagination: Pagination,
    summary: Summary,
    credits: Joi.array().items(CustomerCredit).description('what returns left after reducing the open receivables'),
  }),
);

export const ReceivableAuditTrail = named(
  'ReceivableAuditTrail',
  obj({
    receivableId: hashid('receivable'),
    entries: Joi.array().items(
      obj({
        entity: oneOf('receivable', 'receivable-receipt'),
        entityId: Joi.string().example('k5Qb9Zr2').description('the receivable or receipt (hashid)'),
        action: Joi.string().example('CREATED'),
        actor: Joi.string().example('ana.souza'),
        requestId: Joi.string().allow(null).example('5f1c9e0a-7a43-4c1e-9b7e-2f4d8c6a1b30'),
        at: timestamp(),
        changes: Joi.object()
          .unknown(true)
          .allow(null)
          .description('field → [before, after]')
          .example({ status: ['OPEN', 'PARTIALLY_RECEIVED'] }),
      }),
    ),
  }),
);
