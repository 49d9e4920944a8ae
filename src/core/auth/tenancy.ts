import type { TenantContext } from '../context';
import { definePort } from '../port';

/**
 * The filial access check, as core needs it (authorize-filial.ts, before the body is read): 403
 * unless the filial is the token's, found and active. The tenancy module owns the filial rows and
 * provides it (modules/tenancy/filial-access.ts, plugged in by src/modules/index.ts), so core
 * imports no module.
 */
export interface FilialAccess {
  assertFilialAccess(ctx: TenantContext, filialId: number): Promise<unknown>;
}

export const filialAccess = definePort<FilialAccess>('filial-access');

export function hasScope(scopes: string[], required: string): boolean {
  if (scopes.includes('*') || scopes.includes(required)) return true;
  const [module] = required.split(':');
  return scopes.includes(`${module}:*`);
}
