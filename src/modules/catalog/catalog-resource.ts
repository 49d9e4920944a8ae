import { Brackets, EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Changes, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { NotFoundError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { applyVersionedPatch } from '../../core/versioned-update';

export interface ListQuery extends PageRequest {
  search?: string;
  active?: boolean;
}

interface ResourceOptions<E extends ObjectLiteral> {
  target: EntityTarget<E>;
  name: string;
  auditEntity: string;
  /** Adds the search condition for a term (already trimmed, non-empty) within the company. */
  search: (qb: SelectQueryBuilder<E>, term: string, companyId: number) => void;
  /** Default ordering of lists (a column name: lists run as SQL text); the id is appended as the tie-breaker. */
  orderBy: string;
  /** Derived columns (search forms) left out of audit diffs. */
  unaudited?: string[];
  /** `<type>.created` and `<type>.updated` events, published in the change's transaction. */
  events?: ResourceEvents<E>;
}

interface ResourceEvents<E> {
  /** Event type prefix and aggregate type: `product` → `product.created`, `product.updated`. */
  type: string;
  /** The public payload (hashids only). */
  data: (entity: E) => Record<string, unknown>;
  /** What an update adds to the payload beside `changedFields` (e.g. the price fields changed). */
  updated?: (changes: Changes) => Record<string, unknown>;
}

/**
 * The master-data resources (products, customers, sellers, suppliers) share list/get/create/patch
 * mechanics: tenant filter, two-phase list, audited create, versioned audited patch.
 */
export function catalogResource<E extends ObjectLiteral & { id: number; version: number; companyId: number }>(opts: ResourceOptions<E>) {
  const alias = 'r';
  const resource = {
    async list(ctx: ActorContext, query: ListQuery): Promise<Page<E>> {
      const em = readerOf(ctx);
      const qb = em.createQueryBuilder(opts.target, alias).where(`${alias}.company_id = :companyId`, { companyId: ctx.companyId });
      if (query.active !== undefined) qb.andWhere(`${alias}.active = :active`, { active: query.active });
      if (query.search) qb.andWhere(new Brackets((w) => opts.search(w as unknown as SelectQueryBuilder<E>, query.search!, ctx.companyId)));
      return paginate(
        qb,
        [
          { column: `${alias}.${opts.orderBy}`, direction: 'ASC' },
          { column: `${alias}.id`, direction: 'ASC' },
        ],
        query,
        (ids) => em.createQueryBuilder(opts.target, alias).where(`${alias}.id IN (:...ids)`, { ids }).getMany(),
        (row) => row.id,
      );
    },

    get(ctx: ActorContext, id: number): Promise<E> {
      return resource.getIn(readerOf(ctx), ctx, id);
    },

    /** get, inside the caller's transaction (`em`). */
    async getIn(em: EntityManager, ctx: ActorContext, id: number): Promise<E> {
      const found = await em.findOne(opts.target, { where: { id, companyId: ctx.companyId } as never });
      if (!found) throw new NotFoundError(opts.name);
      return found;
    },

    create(ctx: ActorContext, values: Partial<E>): Promise<E> {
      return inTransaction(ctx, (em) => resource.createIn(em, ctx, values));
    },

    /** create, inside the caller's transaction (`em`): a service that indexes the row in the same one. */
    async createIn(em: EntityManager, ctx: ActorContext, values: Partial<E>): Promise<E> {
      const entity = await em.save(em.create(opts.target, { ...values, companyId: ctx.companyId } as never));
      await recordAudit(em, ctx, { entity: opts.auditEntity, entityId: (entity as E).id, action: 'CREATED' });
      if (opts.events)
        await publishEvent(em, ctx, {
          type: `${opts.events.type}.created`,
          aggregateType: opts.events.type,
          aggregateId: (entity as E).id,
          data: opts.events.data(entity as E),
        });
      return entity as E;
    },

    update(ctx: ActorContext, id: number, version: number, patch: Partial<E>): Promise<E> {
      return inTransaction(ctx, (em) => resource.updateIn(em, ctx, id, version, patch));
    },

    /** update, inside the caller's transaction (`em`). */
    async updateIn(em: EntityManager, ctx: ActorContext, id: number, version: number, patch: Partial<E>): Promise<E> {
      const { entity, changes } = await applyVersionedPatch(em, ctx, opts.target, opts, id, version, patch);
      const changedFields = Object.keys(changes);
      if (opts.events && changedFields.length) {
        await publishEvent(em, ctx, {
          type: `${opts.events.type}.updated`,
          aggregateType: opts.events.type,
          aggregateId: id,
          data: { ...opts.events.data(entity), changedFields, ...opts.events.updated?.(changes) },
        });
      }
      return entity;
    },
  };
  return resource;
}
