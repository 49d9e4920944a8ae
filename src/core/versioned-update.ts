import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm';
import { sqlNow } from './db/sql-time';
import { Changes, diff, recordAudit } from './audit/audit.service';
import type { ActorContext } from './context';
import { NotFoundError, StaleVersionError } from './errors';

/**
 * PATCH semantics shared by every editable resource: load in the tenant, check `version`, apply the
 * given fields, conditional UPDATE on (id, company, version), audit the changed fields.
 */
export async function applyVersionedPatch<E extends ObjectLiteral & { id: number; version: number }>(
  em: EntityManager,
  ctx: ActorContext,
  target: EntityTarget<E>,
  resource: { name: string; auditEntity: string; unaudited?: string[] },
  id: number,
  version: number,
  patch: Partial<E>,
): Promise<{ entity: E; changes: Changes }> {
  const current = await em.findOne(target, { where: { id, companyId: ctx.companyId } as never });
  if (!current) throw new NotFoundError(resource.name);
  if (current.version !== version) throw new StaleVersionError(resource.name, current.version);
  const fields = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined);
  const changes = diff(
    current,
    patch as Record<string, unknown>,
    fields.filter((f) => !resource.unaudited?.includes(f)),
  );
  if (!Object.keys(changes).length) return { entity: current, changes };
  const result = await em
    .createQueryBuilder()
    .update(target)
    .set({ ...Object.fromEntries(fields.map((f) => [f, (patch as Record<string, unknown>)[f]])), version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', { id, companyId: ctx.companyId, version })
    .execute();
  if (!result.affected) throw new StaleVersionError(resource.name, version + 1);
  await recordAudit(em, ctx, { entity: resource.auditEntity, entityId: id, action: 'UPDATED', changes });
  const entity = await em.findOneOrFail(target, { where: { id, companyId: ctx.companyId } as never });
  return { entity, changes };
}

/**
 * The conditional UPDATE of one row of the tenant that every "…If" repository function makes: only while
 * its version (and its status, when given) are still the ones read, the version bumped (and updated_at set,
 * with `touch`, for tables whose column has no ON UPDATE). false when another writer moved it first.
 */
export async function updateIfCurrent<E extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<E>,
  row: { companyId: number; id: number },
  expected: { version: number; status?: string },
  values: QueryDeepPartialEntity<E>,
  options: { touch?: boolean } = {},
): Promise<boolean> {
  const status = expected.status === undefined ? '' : ' AND status = :status';
  const result = await em
    .createQueryBuilder()
    .update(target)
    .set({ ...values, ...(options.touch ? { updatedAt: () => sqlNow() } : {}), version: () => 'version + 1' } as never)
    .where(`id = :id AND company_id = :companyId${status} AND version = :version`, { ...row, ...expected })
    .execute();
  return (result.affected ?? 0) > 0;
}
