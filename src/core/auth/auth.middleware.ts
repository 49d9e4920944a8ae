import type { NextFunction, Request, Response } from 'express';
import { decodeId, isMalformedId } from '../hashids';
import { requestScope } from '../request-context';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import type { TenantContext } from '../context';
import type { TokenClaims } from '../http/types';
import { verifyToken } from './jwt';
import { hasScope } from './tenancy';

const BEARER = /^Bearer\s+(\S+)$/i;

/** What a token grants, as the rest of the request reads it; worked out once per verified token. */
interface Grant {
  companyId: number;
  scopes: string[];
  grantedFiliais: TenantContext['grantedFiliais'];
}

// Keyed by the verified claims object (jwt.ts keeps one per token): an entry lives as long as they do.
const grants = new WeakMap<TokenClaims, Grant>();

function grantOf(claims: TokenClaims): Grant {
  let grant = grants.get(claims);
  if (!grant) {
    grant = Object.freeze({
      companyId: isMalformedId(claims.companyId) ? 0 : decodeId('company', claims.companyId),
      scopes: Object.freeze(claims.scope.split(/\s+/).filter(Boolean)) as string[],
      grantedFiliais: claims.filiais.includes('*')
        ? ('*' as const)
        : (Object.freeze(claims.filiais.map((f) => (isMalformedId(f) ? 0 : decodeId('filial', f))).filter((n) => n > 0)) as number[]),
    });
    grants.set(claims, grant);
  }
  return grant;
}

/**
 * Bearer token → claims; then the tenant headers, which must agree with the token. An `x-filial-id`
 * the token does not grant is refused here; whether that filial exists, is the company's and is
 * active is read from the database after validation (validate.ts), so a request that fails
 * validation costs no round trip.
 */
export function authenticate(requiredScope?: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const match = BEARER.exec(req.header('authorization') ?? '');
    if (!match) throw new UnauthorizedError('Missing bearer token', 'MISSING_TOKEN');
    const claims = verifyToken(match[1]);
    req.token = claims;

    const companyHeader = req.header('x-company-id');
    if (!companyHeader)
      throw new ValidationError(
        'x-company-id header is required',
        [{ path: 'x-company-id', message: 'required' }],
        'MISSING_TENANT_HEADER',
      );
    if (companyHeader !== claims.companyId) throw new ForbiddenError('The token does not grant this company', 'COMPANY_NOT_GRANTED');
    const { companyId, scopes, grantedFiliais } = grantOf(claims);
    if (!companyId) throw new ForbiddenError('The token does not grant this company', 'COMPANY_NOT_GRANTED');

    if (requiredScope && !hasScope(scopes, requiredScope)) {
      throw new ForbiddenError(`The token lacks the scope ${requiredScope}`, 'INSUFFICIENT_SCOPE');
    }
    req.ctx = { companyId, actor: claims.sub, requestId: req.requestId, grantedFiliais, scopes };

    const scope = requestScope.getStore();
    if (scope) {
      scope.companyId = companyId;
      scope.actor = claims.sub;
    }

    const filialHeader = req.header('x-filial-id');
    if (filialHeader) {
      if (isMalformedId(filialHeader))
        throw new ValidationError('x-filial-id is not a valid id', [{ path: 'x-filial-id', message: 'malformed id' }], 'INVALID_ID');
      const filialId = decodeId('filial', filialHeader);
      if (!filialId || (grantedFiliais !== '*' && !grantedFiliais.includes(filialId)))
        throw new ForbiddenError('The token does not grant this filial', 'FILIAL_NOT_GRANTED');
      req.headerFilialId = filialId;
    }
    next();
  };
}

/** The scope of an operator's token (a token of no company: `companyId: "*"`). */
export const OPERATOR_SCOPE = 'operator';

/**
 * An operators' route: a token speaking for no company (`companyId: "*"`, minted by
 * `npm run token -- --operator`) with the `operator` scope. The context's company is 0 until the
 * service names the one it works on.
 */
export function authenticateOperator() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const match = BEARER.exec(req.header('authorization') ?? '');
    if (!match) throw new UnauthorizedError('Missing bearer token', 'MISSING_TOKEN');
    const claims = verifyToken(match[1]);
    req.token = claims;
    const scopes = claims.scope.split(/\s+/).filter(Boolean);
    if (claims.companyId !== '*' || !scopes.includes(OPERATOR_SCOPE)) {
      throw new ForbiddenError(
        'An operator token is required (companyId "*", scope operator: npm run token -- --operator)',
        'OPERATOR_TOKEN_REQUIRED',
      );
    }
    req.ctx = { companyId: 0, actor: claims.sub, requestId: req.requestId, grantedFiliais: '*', scopes };
    const scope = requestScope.getStore();
    if (scope) scope.actor = claims.sub;
    next();
  };
}
