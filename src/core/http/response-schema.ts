import type { ObjectSchema, PartialSchemaMap, Schema } from 'joi';
import type { ResourceType } from '../hashids';
import { Joi } from './schema';

/*
 * Building blocks of response schemas (RouteDef.responses). They document what the mappers give and
 * the test suite holds every response to them (tests/support/contract.ts), so they say exactly what
 * goes out: every key listed, present unless `.optional()`, nothing else.
 */

/** An object whose keys are all present (unless `.optional()`) and whose unknown keys are refused. */
export const obj = (keys: PartialSchemaMap): ObjectSchema => Joi.object(keys).prefs({ presence: 'required' });

/** A named object: one entry of `components.schemas`, referenced wherever it is used. */
export const named = (name: string, schema: ObjectSchema): ObjectSchema => schema.meta({ component: name });

/** A hashid of `type` (examples are real hashids of the type's salt). */
export const hashid = (type: ResourceType) => Joi.string().meta({ hashid: type }).description(`${type} id (hashid)`);

/** Money, rounded to 2 places. */
export const money = () => Joi.number().description('amount, 2 decimal places').example(1289.9);
/** A quantity, rounded to 4 places. */
export const quantity = () => Joi.number().description('quantity, up to 4 decimal places').example(12.5);
/** A unit price or cost, up to 10 places. */
export const unitPrice = () => Joi.number().description('unit price or cost, up to 10 decimal places').example(8.4367);
/** A percentage (e.g. 12.5 for 12.5 %). */
export const percent = () => Joi.number().description('percentage, up to 4 decimal places').example(12.5);

/** A calendar date 'YYYY-MM-DD'. */
export const date = () => Joi.string().meta({ format: 'date' });
/** An ISO 8601 instant (UTC). */
export const timestamp = () => Joi.string().meta({ format: 'date-time' });
/** A CNPJ (14 characters: 12 digits or, from July 2026, letters and digits, then 2 check digits) or a CPF (11 digits). */
export const taxDocument = () =>
  Joi.string()
    .pattern(/^(\d{11}|[0-9A-Z]{12}\d{2})$/)
    .description('CNPJ (alphanumeric from 2026) or CPF, unpunctuated')
    .example('11222333000181');

/** One of fixed values. */
export const oneOf = (...values: string[]) => Joi.string().valid(...values);

/** SPEC §0 Lists: `pagination` of every paginated list (core/pagination.ts). */
export const Pagination = named(
  'Pagination',
  obj({
    page: Joi.number().integer().example(1),
    pageSize: Joi.number().integer().example(20),
    total: Joi.number().integer().allow(null).description('null with includeTotal=false').example(57),
    totalCapped: Joi.boolean().optional().description('present (true) when the count stopped at its cap: total is a lower bound'),
    totalPages: Joi.number().integer().allow(null).example(3),
    hasMore: Joi.boolean(),
    nextCursor: Joi.string()
      .allow(null)
      .description('opaque; pass as `cursor` for the next page')
      .example('eyJ2IjpbIjIwMjYtMDMtMTQiLDEwNDJdfQ'),
  }),
);

/** A page of `item`: `{ data, pagination }`. */
export const page = (name: string, item: Schema): ObjectSchema =>
  named(name, obj({ data: Joi.array().items(item), pagination: Pagination }));

/** One entity's audit trail, oldest first (core/audit/audit-trail.ts): who did what, when, with field diffs. */
export const AuditTrailPage = page(
  'AuditTrailPage',
  obj({
    action: Joi.string().description('what happened: CREATED, UPDATED, APPROVED, PAYMENT_REGISTERED…').example('CREATED'),
    actor: Joi.string().description('the token subject that did it').example('ana.souza'),
    requestId: Joi.string()
      .allow(null)
      .description('the request that did it (x-request-id); null for background work')
      .example('5f1c9e0a-7a43-4c1e-9b7e-2f4d8c6a1b30'),
    at: timestamp(),
    changes: Joi.object()
      .unknown(true)
      .allow(null)
      .description('field → [before, after]')
      .example({ status: [null, 'OPEN'], amount: [null, 1289.9] }),
  }),
);
