import type { EntityManager } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { hydrate } from '../../core/db/sql';
import { queryOn, readerOf } from '../../core/db/transaction';
import { ForbiddenError } from '../../core/errors';
import { currentScope } from '../../core/request-context';
import { Filial } from './entities/filial.entity';

/*
 * Filial access: a filial of the company the token speaks for, granted by it and active, or 403.
 * The tenancy module owns the filial rows, so the check lives here; core/http/authorize-filial.ts
 * reaches it through the `filialAccess` port (core/auth/tenancy.ts), plugged in by src/modules/index.ts.
 */

/** The read behind assertFilialAccess, for a caller that sends it with other reads (then acceptFilial). */
export const filialRead = (ctx: TenantContext, filialId: number): { sql: string; params: unknown[] } => ({
  sql: 'SELECT * FROM filial WHERE id = ? AND company_id = ?',
  params: [filialId, ctx.companyId],
});

/** assertFilialAccess's verdict on the rows of filialRead (403 unless granted, found and active). */
export function acceptFilial(em: EntityManager, ctx: TenantContext, filialId: number, rows: Record<string, unknown>[]): Filial {
  const granted = ctx.grantedFiliais === '*' || ctx.grantedFiliais.includes(filialId);
  const filial = filialId > 0 && granted ? (hydrate(em, Filial, rows)[0] ?? null) : null;
  if (!filial || !filial.active) throw new ForbiddenError('The token does not grant this filial', 'FILIAL_NOT_GRANTED');
  const scope = currentScope();
  if (scope) (scope.filiais ??= new Map()).set(filial.id, filial);
  return filial;
}

/**
 * Loads a filial of the company the token speaks for, or refuses (403: not the caller's to use).
 * Inside a transaction pass its manager: a second pool connection per transaction can starve the pool.
 */
export async function assertFilialAccess(ctx: TenantContext, filialId: number, em: EntityManager = readerOf(ctx)): Promise<Filial> {
  const granted = ctx.grantedFiliais === '*' || ctx.grantedFiliais.includes(filialId);
  const { sql, params } = filialRead(ctx, filialId);
  const rows = filialId > 0 && granted ? await queryOn<Record<string, unknown>[]>(em, sql, params) : [];
  return acceptFilial(em, ctx, filialId, rows);
}

/** A filial already loaded by this request's access check, if any (saves re-reading it). */
export function requestFilial(companyId: number, filialId: number): Filial | undefined {
  const f = currentScope()?.filiais?.get(filialId) as Filial | undefined;
  return f && f.companyId === companyId ? f : undefined;
}

/**
 * The filial's row, exclusive, in the caller's transaction: what serializes a filial's month work (a
 * period's close and reopen, a CIAP appropriation). SQLite runs one transaction at a time.
 */
export async function lockFilialRow(em: EntityManager, companyId: number, filialId: number): Promise<void> {
  if (isMysql) await queryOn(em, 'SELECT id FROM filial WHERE company_id = ? AND id = ? FOR UPDATE', [companyId, filialId]);
}
