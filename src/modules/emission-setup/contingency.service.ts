import type { TenantContext } from '../../core/context';
import { ConflictError } from '../../core/errors';
import { currentContingency, endContingency, enterContingency } from '../outbound-nfe';
import type { ContingencyState } from '../outbound-nfe';
import { loadFilialOf } from './readiness.service';

/*
 * Contingency by an operator (issue 44): a filial whose policy is MANUAL enters SVC only this way, and
 * any filial can when its people know the authorizer is down before a note finds out. New NF-e then go
 * to the SVC (tpEmis 6/7, dhCont, xJust = the reason) until DELETE, or until the authorizer's status
 * service answers 107 again (the invoices module probes it, as for an automatic entry).
 */

export async function enterManualContingency(ctx: TenantContext, filialId: number, reason: string): Promise<ContingencyState> {
  const filial = await loadFilialOf(ctx, filialId);
  const open = await currentContingency(ctx.companyId, filialId, false);
  if (open || !(await enterContingency(ctx.companyId, filialId, filial.uf, { reason }))) {
    throw new ConflictError(
      'CONTINGENCY_ALREADY_OPEN',
      `The filial is in contingency (${open?.mode ?? 'SVC'}) already: DELETE it first to enter again`,
    );
  }
  return (await currentContingency(ctx.companyId, filialId, false))!;
}

export async function leaveContingency(ctx: TenantContext, filialId: number): Promise<void> {
  await loadFilialOf(ctx, filialId);
  await endContingency(ctx.companyId, filialId);
}
