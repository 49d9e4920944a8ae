import type { NextFunction, Request, Response } from 'express';
import { filialAccess } from '../auth/tenancy';
import { ForbiddenError } from '../errors';
import { decodeId, isMalformedId } from '../hashids';

/**
 * Authorization before validation (SPEC §0): the filial a call addresses — `x-filial-id` (already
 * matched against the token by authenticate) and a `:filialId` of the path — is checked before the
 * content type, the body parser and validation, so a caller not granted it gets 403 whatever it sent.
 * The route's params are matched by then, so this covers every route with a filial, present and future.
 *
 * A route with filialCheck 'handler' (no path filial, no Idempotency-Key) saves the database read on
 * its hot path: only the token's grant is checked here and `req.filialUnchecked` is left set; its
 * handler reads the filial with its first round trip, and any failure answered before the handler
 * (400, 413, 415) is preceded by the check (answerAfterFilialCheck below), so it cannot leak past a 403.
 */
export function authorizeFilial(options: { deferToHandler: boolean }) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const ctx = req.ctx;
    if (!ctx) return next();
    const rawPath = (req.params as Record<string, string | undefined>).filialId;
    // A malformed path id is left to validation (400 INVALID_ID).
    // A well-formed id that is no filial's (0) is not granted either.
    const pathFilial = rawPath !== undefined && !isMalformedId(rawPath) ? decodeId('filial', rawPath) : undefined;
    if (pathFilial !== undefined && (pathFilial === 0 || (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(pathFilial)))) {
      throw new ForbiddenError('The token does not grant this filial', 'FILIAL_NOT_GRANTED');
    }
    if (req.headerFilialId !== undefined) {
      if (options.deferToHandler && pathFilial === undefined && !req.header('idempotency-key')) req.filialUnchecked = true;
      else await filialAccess.get().assertFilialAccess(ctx, req.headerFilialId);
      ctx.filialId = req.headerFilialId;
    }
    if (pathFilial !== undefined) {
      if (pathFilial !== ctx.filialId || req.filialUnchecked) await filialAccess.get().assertFilialAccess(ctx, pathFilial);
      ctx.filialId = pathFilial;
    }
    next();
  };
}

/**
 * For the error middleware: a client error answered while the filial was still unchecked (a
 * filialCheck 'handler' route) is answered only after the check, which turns it into 403 when the
 * filial is not the caller's.
 */
export async function filialCheckBeforeClientError(req: Request, status: number): Promise<unknown> {
  if (!req.filialUnchecked || !req.ctx?.filialId || status >= 500 || status === 401 || status === 403 || status === 429) return undefined;
  try {
    await filialAccess.get().assertFilialAccess(req.ctx, req.ctx.filialId);
    req.filialUnchecked = false;
    return undefined;
  } catch (err) {
    return err;
  }
}
