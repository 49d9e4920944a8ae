import type { paths } from './openapi';

/*
 * Request and response types read from the generated OpenAPI types (openapi.ts, `npm run sdk:generate`),
 * by the route's path and method, so that a module's signatures follow the API's own document.
 */

export type Path = keyof paths;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends Path, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : unknown;

/** The JSON body of the operation's success answer (200, else 201, else 202); `unknown` while the route documents none. */
export type ResponseOf<P extends Path, M extends Method> =
  Op<P, M> extends { responses: infer R } ? (R extends { 200: infer S } ? Json<S> : R extends { 201: infer S } ? Json<S> : R extends { 202: infer S } ? Json<S> : unknown) : unknown;

/** The operation's JSON request body. */
export type BodyOf<P extends Path, M extends Method> = Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The operation's query parameters. */
export type QueryOf<P extends Path, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : Record<string, never>;

/** A named schema of the document (`components.schemas`). */
export type Schema<N extends keyof import('./openapi').components['schemas']> = import('./openapi').components['schemas'][N];
