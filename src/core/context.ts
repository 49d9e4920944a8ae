import type { UnitScope } from './db/transaction';

/**
 * Who acts, for which tenant: passed explicitly from the edge to every service call. In a route that
 * runs as one unit of work it also carries that unit (`uow`, core/db/transaction.ts): a service's
 * `inTransaction(ctx, …)` joins it and `readerOf(ctx)` reads through it.
 */
export interface ActorContext extends UnitScope {
  companyId: number;
  actor: string;
  requestId?: string;
}

export interface TenantContext extends ActorContext {
  /** The governing filial: `:filialId` of the path, else `x-filial-id`. */
  filialId?: number;
  /** Filial ids the token grants (`'*'` → every filial of the company). */
  grantedFiliais: number[] | '*';
  scopes: string[];
}

/** Context for work done outside a request (CLI, seed, jobs). */
export const systemContext = (companyId: number, actor = 'system'): ActorContext => ({ companyId, actor });
