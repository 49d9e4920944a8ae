import type { RequestHandler } from 'express';
import type { ObjectSchema, Schema } from 'joi';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSchema {
  params?: ObjectSchema;
  query?: ObjectSchema;
  body?: Schema;
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
  bodyFormat?: 'json' | 'xml' | 'upload';
  /** Documented success status (default 200). */
  status?: number;
  /** Documented response description. */
  responseDescription?: string;
  handler: RequestHandler;
}

export const defineRoutes = (routes: RouteDef[]): RouteDef[] => routes;
