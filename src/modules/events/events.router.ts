import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import * as c from './events.controller';
import { CreatedWebhook, EventList, WebhookDeliveryPage, WebhookPage } from './events.responses';
import { eventSchemas as s } from './events.schemas';

const READ = 'events:read';
const WRITE = 'webhooks:write';

export const eventRoutes = defineRoutes([
  {
    method: 'get',
    path: '/events/stream',
    tag: 'Events',
    summary: 'Server-sent events of the tenant (resumes after Last-Event-ID)',
    scope: READ,
    schema: s.stream,
    responses: {
      body: Joi.string().description(
        'text/event-stream: `id: <cursor>`, `event: <type>`, `data: <Event JSON>`; comments keep the connection alive',
      ),
      contentType: 'text/event-stream',
      errors: { 400: ['INVALID_CURSOR'] },
    },
    handler: c.stream,
  },
  {
    method: 'get',
    path: '/events',
    tag: 'Events',
    summary: 'Events after a cursor (long-poll with wait)',
    scope: READ,
    schema: s.list,
    responses: { body: EventList, errors: { 400: ['INVALID_CURSOR'] } },
    handler: c.list,
  },
  {
    method: 'post',
    path: '/webhooks',
    tag: 'Events',
    summary: 'Subscribe a webhook (the signing secret is returned once)',
    scope: WRITE,
    schema: s.createWebhook,
    idempotent: true,
    status: 201,
    responses: { body: CreatedWebhook },
    handler: c.createWebhook,
  },
  {
    method: 'get',
    path: '/webhooks',
    tag: 'Events',
    summary: 'Active webhook subscriptions',
    scope: READ,
    schema: s.listWebhooks,
    responses: { body: WebhookPage },
    handler: c.listWebhooks,
  },
  {
    method: 'delete',
    path: '/webhooks/:id',
    tag: 'Events',
    summary: 'Stop a webhook',
    scope: WRITE,
    schema: s.webhookId,
    status: 204,
    responses: { errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
    handler: c.deleteWebhook,
  },
  {
    method: 'get',
    path: '/webhooks/:id/deliveries',
    tag: 'Events',
    summary: 'Delivery attempts of a webhook',
    scope: READ,
    schema: s.deliveries,
    responses: { body: WebhookDeliveryPage, errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
    handler: c.deliveries,
  },
]);
