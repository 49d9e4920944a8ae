import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, page, quantity, timestamp, unitPrice } from '../../core/http/response-schema';

/** Response bodies of the returns routes (returns.mapper.ts). */
export const ReturnableItem = named(
  'ReturnableItem',
  obj({
    salesOrderId: hashid('sales-order'),
    salesOrderCode: Joi.number().integer().example(1587),
    salesOrderItemId: hashid('sales-order-item'),
    lineNumber: Joi.number().integer().example(1),
    productId: hashid('product'),
    description: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    unitPrice: unitPrice(),
    discount: money(),
    orderDiscountShare: money(),
    total: money(),
    quantity: quantity(),
    fulfilledQuantity: quantity(),
    returnedQuantity: quantity(),
    returnableQuantity: quantity(),
    fulfilledAt: timestamp().allow(null),
  }),
);
export const ReturnableItemPage = page('ReturnableItemPage', ReturnableItem);

export const SalesReturn = named(
  'SalesReturn',
  obj({
    id: hashid('return'),
    code: Joi.number().integer().example(214),
    filialId: hashid('filial'),
    customerId: hashid('customer'),
    reason: Joi.string().allow(null).example('Embalagem danificada'),
    refundMethod: Joi.string().allow(null).example('DINHEIRO'),
    refundAmount: money(),
    items: Joi.array().items(
      obj({
        salesOrderId: hashid('sales-order'),
        salesOrderItemId: hashid('sales-order-item'),
        productId: hashid('product'),
        quantity: quantity(),
        restock: Joi.boolean(),
        unitCost: unitPrice(),
        refundAmount: money(),
        fiscalOrigins: Joi.array()
          .items(obj({ accessKey: Joi.string().length(44), lineNumber: Joi.number().integer(), quantity: quantity() }))
          .description('The lines of our NF-e/NFC-e the returned units reverse'),
      }),
    ),
    origin: Joi.string()
      .valid('COUNTER', 'IMPORTED')
      .description("COUNTER: registered here (our entry devolução issued); IMPORTED: the customer's own devolução NF-e"),
    originStatus: Joi.string()
      .valid('RESOLVED', 'PENDING', 'TRACED')
      .description(
        "PENDING: the sale's NF-e/NFC-e was not authorized yet; the returned units are traced to it, and our devolução issued automatically, once it is. TRACED: traced, the devolução being issued. RESOLVED: traced (or nothing to trace to)",
      ),
    importedAccessKey: Joi.string().length(44).allow(null),
    documents: Joi.array()
      .items(
        obj({
          invoiceId: hashid('invoice'),
          status: Joi.string().example('AUTHORIZED'),
          accessKey: Joi.string().length(44),
          series: Joi.number().integer(),
          number: Joi.number().integer(),
          live: Joi.boolean(),
        }),
      )
      .description('Our NF-e de devolução (tpNF 0, finNFe 4), newest first'),
    credits: Joi.array()
      .items(
        obj({
          tax: Joi.string().valid('ICMS', 'PIS', 'COFINS', 'IPI'),
          base: money(),
          amount: money(),
          accessKey: Joi.string().length(44),
          status: Joi.string().valid('RECORDED', 'REVERSED'),
          entryDate: Joi.string(),
        }),
      )
      .description("The original sale's taxes taken back as credits by the filial's regime"),
    refund: obj({
      receivables: Joi.array()
        .items(obj({ receivableId: hashid('receivable'), salesOrderId: hashid('sales-order'), amount: money() }))
        .description("The sale's open receivables the refund reduced (the customer's, from the last installment back), by how much"),
      customerCredits: Joi.array()
        .items(
          obj({
            id: hashid('customer-credit'),
            kind: Joi.string()
              .valid('CREDIT', 'REFUND')
              .description('CREDIT: store credit the customer holds; REFUND: money owed back by `method`'),
            method: Joi.string().example('DINHEIRO'),
            salesOrderId: hashid('sales-order'),
            amount: money(),
          }),
        )
        .description('What was left after the receivables: a store credit or a refund to pay, one per sale'),
    }).description('Where the refund went'),
    documentProblem: obj({ code: Joi.string(), detail: Joi.string() })
      .allow(null)
      .description('Why our devolução could not be issued with the return (POST /returns/{id}/document issues it again)'),
    createdBy: Joi.string().example('ana.souza'),
    createdAt: timestamp(),
  }),
);
export const SalesReturnPage = page('SalesReturnPage', SalesReturn);
