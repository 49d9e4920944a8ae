import type { NextFunction, Request, Response } from 'express';
import type { ObjectSchema, Schema } from 'joi';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Statuses a route can answer with a problem document (SPEC §0 Errors). */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

/**
 * What a route answers: the success body and the problem codes it can give. The OpenAPI document is
 * built from it and the test suite validates every response against that document, so it must be true.
 */
export interface RouteResponses {
  /** Success body as a joi schema (shared pieces in core/http/response-schema.ts); omitted for 204. */
  body?: Schema;
  /** Media type of the success body; default application/json. */
  contentType?: string;
  /** Other media types the same success can be asked in (e.g. text/csv by ?format=csv), each with its body. */
  alternateContent?: Record<string, Schema>;
  /** A second success status answered with the same body (an upsert: 201 created, 200 updated). */
  alsoStatus?: number;
  /**
   * Problem codes by status that this route's own logic gives. The ones every route of its kind can give
   * (auth 401/403, 429, validation 400, content type 415/413, idempotency 409, 500) are added by openapi.ts.
   */
  errors?: Partial<Record<ProblemStatus, string[]>>;
}

export interface RouteSchema {
  params?: ObjectSchema;
  query?: ObjectSchema;
  body?: Schema;
  /**
   * A hand-written reading of the common shapes of `body` (a hot route's), answering exactly what joi
   * would, or undefined for anything else, which joi then validates (so every error is joi's). In the
   * test suite every answer is checked against joi's (validate.ts): the two cannot drift apart unnoticed.
   */
  fastBody?: (input: unknown) => unknown;
  /**
   * A hand-written example of the JSON body for the OpenAPI document; without one, the document shows
   * an example generated from `body` and checked against it (core/openapi/examples.ts). Either way
   * tests/core/request-examples.test.ts holds it to the route's validation.
   */
  example?: unknown;
}

/**
 * One route of the API. The router builds its middleware chain from this, and the OpenAPI document
 * is generated from the same definitions, so the two never disagree.
 */
export interface RouteDef {
  method: HttpMethod;
  /** Express path under /api, e.g. '/entry-document/confirm/:id'. */
  path: string;
  summary: string;
  tag: string;
  /** Required permission (SPEC §0 scopes); omitted → any valid token. */
  scope?: string;
  /** No token, no tenant (health, docs). */
  public?: boolean;
  /**
   * An operators' route (creating companies and filiais): the token speaks for no company
   * (`companyId: "*"`) and carries the `operator` scope; no tenant headers. A tenant's token, even
   * with scope `*`, is refused (403 OPERATOR_TOKEN_REQUIRED).
   */
  operator?: boolean;
  schema?: RouteSchema;
  /**
   * Honours Idempotency-Key (creating/posting routes). `true`: the handler's work and the key's
   * outcome commit in one transaction. 'own-transactions': the handler commits on its own (external
   * calls between transactions, background jobs); see idempotency.middleware.ts.
   */
  idempotent?: boolean | 'own-transactions';
  /**
   * Body formats accepted; default JSON (1 MB). 'xml' also takes application/xml and text/xml (5 MB).
   * 'upload' takes a ZIP (application/zip) or multipart/form-data as a raw Buffer (the handler reads it).
   */
  bodyFormat?: 'json' | 'xml' | 'csv' | 'upload';
  /**
   * 'handler': the x-filial-id filial is checked by the handler (with its first reads, saving a round
   * trip) instead of before it. The validation step then leaves `req.filialUnchecked` set, and the
   * handler must either check it in its own reads or call confirmFilial(req) before anything else
   * that could answer. With an Idempotency-Key the check stays before the handler (a refused filial
   * never claims the key).
   */
  filialCheck?: 'handler';
  /** Documented success status (default 200). */
  status?: number;
  /** Documented response description. */
  responseDescription?: string;
  /** Documented responses; see docs/architecture.md (Rules → Routes). */
  responses?: RouteResponses;
  handler: RouteHandler;
}

/**
 * A controller: `(req: ValidRequest<typeof s.x>, res)` (core/http/typed-input.ts), or `(req: Request, res)`
 * when it reads no validated input — a plain Request's `valid` is `unknown` (core/http/types.ts). The
 * route table accepts either; that `s.x` is the route's own `schema` is the reviewer's check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table takes typed and untyped handlers alike (see above)
export type RouteHandler = (req: Request & { valid: any }, res: Response, next: NextFunction) => unknown;

export const defineRoutes = (routes: RouteDef[]): RouteDef[] => routes;
