import { id, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { EventQuery } from './events.service';

const after = Joi.string()
  .max(64)
  .description('cursor: a `nextCursor` / event `cursor` (or an event id); `0` → from the first event; omitted → from now');

const types = Joi.string()
  .trim()
  .pattern(/^[a-z0-9.,-]+$/)
  .custom((v: string) => v.split(',').filter(Boolean), 'comma-separated list')
  .description('comma-separated event types');

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const eventSchemas = {
  list: typedSchema<{ query: EventQuery & { after?: string } }>({
    query: Joi.object({
      after,
      types,
      limit: Joi.number().integer().min(1).max(500).default(100),
      wait: Joi.number().integer().min(0).max(30).default(0).description('long-poll seconds'),
    }),
  }),
  stream: typedSchema<{ query: { after?: string; types?: string[] } }>({ query: Joi.object({ after, types }) }),
  createWebhook: typedSchema<{ body: { url: string; types: string[]; description?: string | null } }>({
    body: Joi.object({
      url: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .max(500)
        .required(),
      types: Joi.array()
        .items(Joi.string().pattern(/^[a-z0-9.-]+$/))
        .unique()
        .default([]),
      description: Joi.string().max(200).allow(null),
    }),
  }),
  listWebhooks: typedSchema<{ query: PageRequest }>({ query: Joi.object(pagination) }),
  webhookId: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('webhook').required() }) }),
  deliveries: typedSchema<{ params: { id: number }; query: PageRequest }>({
    params: Joi.object({ id: id('webhook').required() }),
    query: Joi.object(pagination),
  }),
};
