import Joi from 'joi';
import { hashid, money, named, obj, oneOf, quantity, timestamp, unitPrice } from '../../core/http/response-schema';
import { TRANSFER_STATUSES } from './entities/stock-transfer.entity';

/* Response bodies of /transfers (mirrors transfers.mapper.ts). */

export const Transfer = named(
  'Transfer',
  obj({
    id: hashid('transfer'),
    fromFilialId: hashid('filial'),
    toFilialId: hashid('filial'),
    status: oneOf(...TRANSFER_STATUSES).description(
      'ISSUING: NF-e being issued, units held; AUTHORIZED: stock left the sending filial; RELEASED: NF-e rejected/denied/voided; CANCELLED: NF-e cancelled, stock back',
    ),
    total: money().description('the units at the sending filial’s average cost (vProd)'),
    notes: Joi.string().allow(null).example('Reposição da loja do centro'),
    items: Joi.array().items(
      obj({
        lineNumber: Joi.number().integer().example(1),
        productId: hashid('product'),
        quantity: quantity(),
        unitCost: unitPrice(),
        total: money(),
      }),
    ),
    invoices: Joi.array()
      .items(
        obj({
          id: hashid('invoice'),
          status: Joi.string().example('AUTHORIZED'),
          accessKey: Joi.string().example('35261111222333000181550010000001231123456780'),
          series: Joi.number().integer().example(1),
          number: Joi.number().integer().example(123),
          live: Joi.boolean(),
        }),
      )
      .description('the NF-e issued for the transfer, newest first'),
    createdBy: Joi.string().example('maria.souza'),
    authorizedAt: timestamp().allow(null),
    cancelledAt: timestamp().allow(null),
    version: Joi.number().integer().example(2),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
