import type { NextFunction, Request, Response } from 'express';
import { decodeId, isMalformedId } from '../hashids';
import { requestScope } from '../request-context';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import { verifyToken } from './jwt';
import { assertFilialAccess, hasScope } from './tenancy';

const BEARER = /^Bearer\s+(\S+)$/i;

/** Bearer token → claims; then the tenant headers, which must agree with the token. */
export function authenticate(requiredScope?: string) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const match = BEARER.exec(req.header('authorization') ?? '');
    if (!match) throw new UnauthorizedError('Missing bearer token', 'MISSING_TOKEN');
    const claims = verifyToken(match[1]);
    req.token = claims;

    const companyHeader = req.header('x-company-id');
    if (!companyHeader) throw new ValidationError('x-company-id header is required', [{ path: 'x-company-id', message: 'required' }], 'MISSING_TENANT_HEADER');
    if (companyHeader !== claims.companyId) throw new ForbiddenError('The token does not grant this company', 'COMPANY_NOT_GRANTED');
    const companyId = isMalformedId(claims.companyId) ? 0 : decodeId('company', claims.companyId);
    if (!companyId) throw new ForbiddenError('The token does not grant this company', 'COMPANY_NOT_GRANTED');

    const scopes = claims.scope.split(/\s+/).filter(Boolean);
    if (requiredScope && !hasScope(scopes, requiredScope)) {
      throw new ForbiddenError(`The token lacks the scope ${requiredScope}`, 'INSUFFICIENT_SCOPE');
    }
    const grantedFiliais = claims.filiais.includes('*')
      ? ('*' as const)
      : claims.filiais.map((f) => (isMalformedId(f) ? 0 : decodeId('filial', f))).filter((n) => n > 0);
    req.ctx = { companyId, actor: claims.sub, requestId: req.requestId, grantedFiliais, scopes };

    const scope = requestScope.getStore();
    if (scope) {
      scope.companyId = companyId;
      scope.actor = claims.sub;
    }

    const filialHeader = req.header('x-filial-id');
    if (filialHeader) {
      if (isMalformedId(filialHeader)) throw new ValidationError('x-filial-id is not a valid id', [{ path: 'x-filial-id', message: 'malformed id' }], 'INVALID_ID');
      await assertFilialAccess(req.ctx, decodeId('filial', filialHeader));
      req.ctx.filialId = decodeId('filial', filialHeader);
    }
    next();
  };
}
