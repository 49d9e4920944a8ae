import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { ConflictError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { Receivable } from './entities/receivable.entity';
import { RECEIVABLE_AUDIT, receivableData } from './receivables.events';
import { updateReceivableIf } from './receivables.repository';
import { assertTransition } from './receivables.state';

/** A locked receivable that changed all the same: unreachable while the rows are locked; kept so a change of locking cannot go unnoticed. */
export const concurrentChange = () => new ConflictError('CONCURRENT_UPDATE', 'A receivable changed meanwhile; retry', { retryable: true });

/**
 * One receivable, locked by the caller, cancelled with a reason: conditional on the status and version
 * it was read with, audited (CANCELLED) and announced (receivable.cancelled, the reason beside it).
 * Used where its fiscal document is cancelled and where the NF-e re-makes its receivables.
 */
export async function cancelReceivable(em: EntityManager, ctx: ActorContext, r: Receivable, reason: string): Promise<void> {
  assertTransition(r, 'cancel', 'CANCELLED');
  const cancelled = await updateReceivableIf(
    em,
    ctx.companyId,
    r.id,
    { status: r.status, version: r.version },
    { status: 'CANCELLED', cancelReason: reason, cancelled: true },
  );
  if (!cancelled) throw concurrentChange();
  await recordAudit(em, ctx, {
    entity: RECEIVABLE_AUDIT,
    entityId: r.id,
    action: 'CANCELLED',
    changes: { status: [r.status, 'CANCELLED'], cancelReason: [null, reason] },
  });
  await publishEvent(em, ctx, {
    type: 'receivable.cancelled',
    filialId: r.filialId,
    aggregateType: RECEIVABLE_AUDIT,
    aggregateId: r.id,
    data: { ...receivableData({ ...r, status: 'CANCELLED', cancelReason: reason }), reason },
  });
}
