import type { Request } from 'express';
import type { RouteSchema } from './route';

/*
 * Typed edges. Joi cannot give a static type of what it validated, so each schema declares the type
 * of its validated input beside it (`typedSchema<FulfillInput>({ params, body })`), and a controller
 * takes `ValidRequest<typeof s.fulfill>`: `req.valid` is then exactly that type, and reading a field
 * the schema does not declare is a compile error. The schema and its type sit in one place, so a
 * reviewer sees both change together.
 */

/** The shape of a route's validated input; a part the schema lacks is absent. */
export interface InputShape {
  params?: object;
  query?: object;
  body?: unknown;
}

declare const INPUT: unique symbol;

/** A route schema that carries the type of its validated input. */
export type TypedSchema<I extends InputShape> = RouteSchema & { readonly [INPUT]?: I };

/** Declares the validated type of a route schema (no runtime effect: the object is returned as is). */
export const typedSchema = <I extends InputShape>(schema: RouteSchema): TypedSchema<I> => schema as TypedSchema<I>;

/** The request of a route whose schema is `S`: `req.valid` holds only what the schema declares. */
export type ValidRequest<S> = Omit<Request, 'valid'> & { valid: S extends TypedSchema<infer I> ? Required<I> : never };
