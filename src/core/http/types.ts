import type { TenantContext } from '../context';

/**
 * What validation leaves on the request. `unknown` here, so a handler taking a plain `Request` cannot
 * read a field unchecked: a controller reads it through `ValidRequest<typeof schema>`
 * (core/http/typed-input.ts), which gives it the schema's declared type.
 */
export interface ValidatedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- express's Request is augmented through its global namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by the auth/tenant middleware on every authenticated route. */
      ctx: TenantContext;
      /** Joi-validated params/query/body (Express 5: req.query cannot be reassigned). */
      valid: ValidatedInput;
      /** Verified token claims. */
      token?: TokenClaims;
      /** `x-filial-id`, granted by the token; checked against the database before the body is read (authorize-filial.ts), then `ctx.filialId`. */
      headerFilialId?: number;
      /**
       * `ctx.filialId` (from x-filial-id) is not checked against the database yet: the route asked to do
       * it in its handler's first round trip (RouteDef.filialCheck); see confirmFilial in validate.ts.
       */
      filialUnchecked?: boolean;
    }
  }
}

export interface TokenClaims {
  sub: string;
  companyId: string;
  filiais: string[];
  scope: string;
  exp: number;
  iat?: number;
}

export {};
