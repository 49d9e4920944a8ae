import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, page, timestamp } from '../../core/http/response-schema';

/** Response bodies of the events and webhooks routes (events.mapper.ts). */
export const Event = named(
  'Event',
  obj({
    id: hashid('event').description('identity of the event: dedupe by it'),
    type: Joi.string().example('sales-order.confirmed'),
    companyId: hashid('company'),
    filialId: hashid('filial').allow(null),
    occurredAt: timestamp(),
    resource: obj({
      type: Joi.string().example('sales-order'),
      id: Joi.string().allow(null).description('hashid of the resource').example('kX9aD2mQ'),
    }),
    sequence: Joi.number().integer().description('1, 2, 3 … per resource, in commit order').example(2),
    cursor: Joi.string().allow(null).description('resume right after this event (`after`)').example('c1.eyJwIjo0MjF9'),
    data: Joi.object().unknown(true).description('the payload of the event type (SPEC §10)'),
  }),
);

export const EventList = named(
  'EventList',
  obj({ data: Joi.array().items(Event), nextCursor: Joi.string().description('pass as `after` to continue').example('c1.eyJwIjo0MjJ9') }),
);

const webhookKeys = {
  id: hashid('webhook'),
  url: Joi.string().example('https://erp.example.com.br/hooks/retail'),
  types: Joi.array().items(Joi.string().example('sales-order.confirmed')).description('empty: every type'),
  description: Joi.string().allow(null).example('ERP integration'),
  active: Joi.boolean(),
  createdAt: timestamp(),
};

export const Webhook = named('Webhook', obj(webhookKeys));
export const CreatedWebhook = named(
  'CreatedWebhook',
  obj({
    ...webhookKeys,
    secret: Joi.string().description('signing secret, shown only here').example('whsec_4f9d2c7a1b8e6f30a5c2d9e7b1f4a6c8'),
  }),
);
export const WebhookPage = page('WebhookPage', Webhook);

export const WebhookDelivery = named(
  'WebhookDelivery',
  obj({
    eventId: hashid('event'),
    status: oneOf('PENDING', 'DELIVERED', 'FAILED'),
    attempts: Joi.number().integer().example(1),
    nextAttemptAt: timestamp().allow(null),
    lastStatusCode: Joi.number().integer().allow(null).example(200),
    lastError: Joi.string().allow(null).example('connect ECONNREFUSED'),
    deliveredAt: timestamp().allow(null),
    createdAt: timestamp(),
  }),
);
export const WebhookDeliveryPage = page('WebhookDeliveryPage', WebhookDelivery);
