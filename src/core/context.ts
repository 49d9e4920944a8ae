/** Who acts, for which tenant: passed explicitly from the edge to every service call. */
export interface ActorContext {
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
