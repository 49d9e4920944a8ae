import { Joi } from '../../core/http/schema';
import { BoletoResponse } from '../collection';
import { date, hashid, money, named, obj, oneOf, page, quantity, timestamp, unitPrice } from '../../core/http/response-schema';

/** Response bodies of the sales-order routes (sales-order.mapper.ts). */
const status = oneOf('OPEN', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED', 'CLOSED', 'GROUPED');
const problem = obj({
  code: Joi.string().example('SALES_ORDER_HAS_FULFILLMENTS'),
  message: Joi.string().example('The order has fulfillments'),
});

const Origin = named(
  'SalesOrderItemOrigin',
  obj({ salesOrderId: hashid('sales-order'), salesOrderItemId: hashid('sales-order-item'), quantity: quantity() }),
);

export const SalesOrderItem = named(
  'SalesOrderItem',
  obj({
    salesOrderItemId: hashid('sales-order-item'),
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    quantity: quantity(),
    unitPrice: unitPrice(),
    discount: money(),
    total: money(),
    orderDiscountShare: money().description('share of the order discount, 2 places'),
    fulfilledQuantity: quantity(),
    returnedQuantity: quantity(),
    cancelledQuantity: quantity(),
    remainingQuantity: quantity(),
    origins: Joi.array().items(Origin).allow(null).description('source lines of a grouped order'),
  }),
);

export const SalesOrderTotals = named(
  'SalesOrderTotals',
  obj({
    gross: money(),
    itemsDiscount: money(),
    items: money(),
    discount: money(),
    freight: money(),
    insurance: money(),
    otherExpenses: money(),
    total: money(),
  }),
);

/** The keys of a SalesOrder (quick-sale's QuickSaleOrder extends them). */
export const salesOrderKeys = {
  id: hashid('sales-order'),
  code: Joi.number().integer().description('sequential per filial').example(1587),
  filialId: hashid('filial'),
  type: oneOf('ORDER', 'QUOTE'),
  flowMode: oneOf('STANDARD', 'QUICK_SALE'),
  status,
  customerId: hashid('customer').allow(null),
  customerName: Joi.string().allow(null).example('Maria da Silva'),
  sellerId: hashid('seller').allow(null),
  sellerName: Joi.string().allow(null).example('João Pereira'),
  alias: Joi.string().allow(null).example('Mesa 4'),
  items: Joi.array().items(SalesOrderItem),
  discount: money(),
  freight: money(),
  insurance: money().description('vSeg of its NF-e'),
  otherExpenses: money().description('vOutro of its NF-e'),
  finalConsumer: Joi.boolean().allow(null).description("indFinal of its NF-e; null: the customer's"),
  totals: SalesOrderTotals,
  notes: Joi.string().allow(null).example('Entregar após as 14h'),
  paymentTerms: obj({ installmentDays: Joi.array().items(Joi.number().integer()).example([30, 60, 90]) })
    .allow(null)
    .description('each fulfilment is billed in these installments; null: one installment due on billing'),
  boletoBankAccountId: hashid('bank-account')
    .allow(null)
    .description('boleto on billing: the collection account on which each billing issues a boleto per customer installment; null: none'),
  validUntil: date().allow(null).description('quotes only'),
  expired: Joi.boolean().description('a quote past validUntil'),
  groupedIntoId: hashid('sales-order').allow(null),
  groupedFromIds: Joi.array().items(hashid('sales-order')),
  cancelReason: Joi.string().allow(null),
  cancelledAt: timestamp().allow(null),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const SalesOrder = named('SalesOrder', obj(salesOrderKeys));
export const SalesOrderPage = page('SalesOrderPage', SalesOrder);

/** One fiscal document of an order (sales-order.ports.ts OrderFiscalDocumentView). */
export const OrderFiscalDocument = named(
  'SalesOrderFiscalDocument',
  obj({
    model: Joi.number().valid(55, 65).description('55 NF-e (invoices), 65 NFC-e (the counter note)'),
    id: Joi.string().example('Xk9vQ2').description("the document's hashid: an invoice for model 55, an nfce for 65"),
    purpose: Joi.string()
      .valid('SALE', 'RETURN')
      .description('SALE: bills the order (or its counter note); RETURN: a devolução of its goods'),
    series: Joi.number().integer().example(1),
    number: Joi.number().integer().example(1234),
    accessKey: Joi.string().example('35260311222333000181550010000012341100000348'),
    status: Joi.string().example('AUTHORIZED'),
    issuedAt: timestamp(),
    total: money(),
    href: Joi.string().example('/api/invoices/detail/Xk9vQ2').description("GET address of the document's detail"),
  }),
);

export const SalesOrderDetail = named(
  'SalesOrderDetail',
  obj({ ...salesOrderKeys, fiscalDocuments: Joi.array().items(OrderFiscalDocument) }),
);

/** Problem codes of the routes that create, read or change orders (sales-order.router.ts, and POST /sales-order in quick-sale.router.ts). */
export const salesOrderErrors = {
  LINES: ['PRODUCT_NOT_FOUND', 'CUSTOMER_NOT_FOUND', 'SELLER_NOT_FOUND'],
  LINE_RULES: [
    'PRODUCT_INACTIVE',
    'CUSTOMER_INACTIVE',
    'SELLER_INACTIVE',
    'DISCOUNT_EXCEEDS_TOTAL',
    'VALID_UNTIL_IN_THE_PAST',
    'VALID_UNTIL_QUOTES_ONLY',
  ],
  /** Boleto on billing: the order's boletoBankAccountId (create, edit, assign-customer, fulfil). */
  BOLETO_ACCOUNT_NOT_FOUND: ['BANK_ACCOUNT_NOT_FOUND'],
  BOLETO_TERMS: ['BANK_ACCOUNT_INACTIVE', 'BANK_ACCOUNT_OTHER_FILIAL', 'PAYER_DOCUMENT_MISSING'],
  STATE: [
    'INVALID_STATUS_TRANSITION',
    'SALES_ORDER_HAS_FULFILLMENTS',
    'SALES_ORDER_FULFILLED',
    'SALES_ORDER_HAS_GROUPED_SOURCES',
    'INVALID_TYPE_FOR_ACTION',
  ],
};

const ItemProgress = named(
  'SalesOrderItemProgress',
  obj({
    salesOrderItemId: hashid('sales-order-item'),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    ordered: quantity(),
    fulfilled: quantity(),
    returned: quantity(),
    cancelled: quantity(),
    remaining: quantity(),
  }),
);

export const Fulfillment = named(
  'Fulfillment',
  obj({
    id: hashid('fulfillment'),
    salesOrderId: hashid('sales-order'),
    filialId: hashid('filial'),
    actor: Joi.string().example('ana.souza'),
    createdAt: timestamp(),
    items: Joi.array().items(
      obj({
        salesOrderItemId: hashid('sales-order-item'),
        productId: hashid('product'),
        quantity: quantity(),
        unitCost: unitPrice().description('average cost at fulfilment'),
      }),
    ),
  }),
);

export const FulfillmentView = named(
  'SalesOrderFulfillmentView',
  obj({
    salesOrderId: hashid('sales-order'),
    code: Joi.number().integer().example(1587),
    status,
    version: Joi.number().integer().example(2),
    items: Joi.array().items(ItemProgress),
    fulfillments: Joi.array().items(Fulfillment),
  }),
);

export const FulfillResult = named(
  'FulfillResult',
  obj({
    fulfillment: Fulfillment,
    boletos: Joi.array()
      .items(BoletoResponse)
      .description(
        "boleto on billing: the boletos this fulfilment's billing issued (one per customer installment, PENDING_REGISTRATION) when the order names a boletoBankAccountId; else empty",
      ),
    order: obj({
      id: hashid('sales-order'),
      code: Joi.number().integer().example(1587),
      status,
      version: Joi.number().integer().example(2),
      items: Joi.array().items(ItemProgress),
    }),
  }),
);

export const CancelPreview = named(
  'SalesOrderCancelPreview',
  obj({
    canCancel: Joi.boolean(),
    currentStatus: status,
    resultingStatus: status.allow(null),
    blockingProblems: Joi.array().items(problem),
    itemsCancelled: Joi.array().items(obj({ salesOrderItemId: hashid('sales-order-item'), quantity: quantity() })),
  }),
);

export const GroupPreview = named(
  'SalesOrderGroupPreview',
  obj({
    canGroup: Joi.boolean(),
    blockingProblems: Joi.array().items(
      obj({
        code: Joi.string().example('CUSTOMERS_DIFFER'),
        message: Joi.string(),
        salesOrderId: hashid('sales-order').allow(null),
        currentStatus: status.optional(),
      }),
    ),
    warnings: Joi.array().items(obj({ code: Joi.string().example('SELLERS_DIFFER'), message: Joi.string() })),
    order: obj({
      filialId: hashid('filial'),
      type: oneOf('ORDER'),
      customerId: hashid('customer').allow(null),
      sellerId: hashid('seller').allow(null),
      notes: Joi.string().allow(null),
      discount: money(),
      freight: money(),
      totals: SalesOrderTotals,
      items: Joi.array().items(
        obj({
          lineNumber: Joi.number().integer().example(1),
          productId: hashid('product'),
          description: Joi.string().example('Café torrado e moído 500 g'),
          unit: Joi.string().example('UN'),
          quantity: quantity(),
          unitPrice: unitPrice(),
          discount: money(),
          total: money(),
          orderDiscountShare: money(),
          origins: Joi.array().items(Origin),
        }),
      ),
      groupedFromIds: Joi.array().items(hashid('sales-order')),
    }),
  }),
);
