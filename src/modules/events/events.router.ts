import { defineRoutes } from '../../core/http/route';
import * as c from './events.controller';
import { eventSchemas as s } from './events.schemas';

const READ = 'events:read';
const WRITE = 'webhooks:write';

export const eventRoutes = defineRoutes([
  { method: 'get', path: '/events/stream', tag: 'Events', summary: 'Server-sent events of the tenant (resumes after Last-Event-ID)', scope: READ, schema: s.stream, handler: c.stream },
  { method: 'get', path: '/events', tag: 'Events', summary: 'Events after a cursor (long-poll with wait)', scope: READ, schema: s.list, handler: c.list },
  { method: 'post', path: '/webhooks', tag: 'Events', summary: 'Subscribe a webhook (the signing secret is returned once)', scope: WRITE, schema: s.createWebhook, idempotent: true, status: 201, handler: c.createWebhook },
  { method: 'get', path: '/webhooks', tag: 'Events', summary: 'Active webhook subscriptions', scope: READ, schema: s.listWebhooks, handler: c.listWebhooks },
  { method: 'delete', path: '/webhooks/:id', tag: 'Events', summary: 'Stop a webhook', scope: WRITE, schema: s.webhookId, status: 204, handler: c.deleteWebhook },
  { method: 'get', path: '/webhooks/:id/deliveries', tag: 'Events', summary: 'Delivery attempts of a webhook', scope: READ, schema: s.deliveries, handler: c.deliveries },
]);
