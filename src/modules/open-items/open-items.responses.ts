import { Joi } from '../../core/http/schema';
import { money, obj, oneOf, timestamp } from '../../core/http/response-schema';

/* Response-schema pieces of a settlement both sides share (open-items.mapper.ts); examples are the side's own wording. */

export const settlementStatus = () => oneOf('ACTIVE', 'REVERSED');

/** method … total, in the order of settlementMoney. */
export const settlementMoneyKeys = () => ({
  method: Joi.string().example('PIX'),
  amount: money().description('settled from the balance'),
  interest: money(),
  fine: money(),
  discount: money(),
  total: money().description('amount + interest + fine - discount'),
});

/** note … version, in the order of settlementTrail. */
export const settlementTrailKeys = (examples: { note: string; reversalReason: string }) => ({
  note: Joi.string().allow(null).example(examples.note),
  createdBy: Joi.string().example('ana.souza'),
  createdAt: timestamp(),
  reversedAt: timestamp().allow(null),
  reversedBy: Joi.string().allow(null).example('carlos.lima'),
  reversalReason: Joi.string().allow(null).example(examples.reversalReason),
  version: Joi.number().integer().example(1),
});

export const settlementTotalsSchema = () => obj({ amount: money(), interest: money(), fine: money(), discount: money(), total: money() });
